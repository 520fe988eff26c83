/**
 * /search over the products held in memory: every product (a listing) or the matches the TextIndex found (a text
 * search), filtered, counted, sorted and paged exactly as store/products.ts's SQL does. Prices and ratings are the
 * database's numeric(12,2) and numeric(3,2) read as float8: the nearest double of each decimal keeps the decimals'
 * order, and a bound given as a JS number is sent as its shortest decimal, so comparing doubles here gives the
 * numeric comparisons' answers. Products without the filtered value never match; sorts put them last; ties go to the
 * ASIN in byte order.
 */
import { byteOrder, type Page, type TextMatches } from "@apiplat/catalogue";
import { PRICE_BANDS } from "./products.js";
import type { CategoryFacet, PriceBandFacet, ProductFilters, ProductRecord, ProductSort } from "../store/products.js";

interface Ranked {
  row: ProductRecord;
  rank: number;
}

export interface ProductFacets {
  category: CategoryFacet[];
  price_band: PriceBandFacet[];
}

export interface ProductSearchResult {
  total: number;
  products: ProductRecord[];
  facets?: ProductFacets;
}

function matchesFilters(filters: Omit<ProductFilters, "text">): (row: ProductRecord) => boolean {
  const locales = filters.locales?.length ? new Set(filters.locales) : null;
  const categories = filters.categories?.length ? new Set(filters.categories) : null;
  const { minPrice, maxPrice, minRating, isBestSeller } = filters;
  return (row) =>
    (locales === null || locales.has(row.locale)) &&
    (categories === null || (row.category_id !== null && categories.has(row.category_id))) &&
    (minPrice === undefined || (row.price !== null && row.price >= minPrice)) &&
    (maxPrice === undefined || (row.price !== null && row.price <= maxPrice)) &&
    (minRating === undefined || (row.rating !== null && row.rating >= minRating)) &&
    (isBestSeller === undefined || row.is_best_seller === isBestSeller);
}

/** `x DESC NULLS LAST` (booleans as true above false). */
function descNullsLast(a: number | boolean | null, b: number | boolean | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return Number(b) - Number(a);
}

function ascNullsLast(a: number | null, b: number | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return a - b;
}

const byAsin = (a: Ranked, b: Ranked) => byteOrder(a.row.asin, b.row.asin);
const mostRated = (a: Ranked, b: Ranked) => descNullsLast(a.row.ratings_count, b.row.ratings_count) || byAsin(a, b);

const ORDERS: Record<ProductSort, (a: Ranked, b: Ranked) => number> = {
  relevance: (a, b) => b.rank - a.rank || mostRated(a, b),
  price_asc: (a, b) => ascNullsLast(a.row.price, b.row.price) || byAsin(a, b),
  price_desc: (a, b) => descNullsLast(a.row.price, b.row.price) || byAsin(a, b),
  rating: (a, b) => descNullsLast(a.row.rating, b.row.rating) || mostRated(a, b),
  reviews: mostRated,
  best_sellers: (a, b) =>
    descNullsLast(a.row.is_best_seller, b.row.is_best_seller) || descNullsLast(a.row.bought_last_month, b.row.bought_last_month) || mostRated(a, b),
};

/**
 * A search over `rows`: `matches` the text search's matches and ranks, or null for a listing (every row, rank 0 as
 * the SQL's `0 DESC`).
 */
export function searchRows(
  rows: readonly ProductRecord[],
  matches: TextMatches | null,
  filters: Omit<ProductFilters, "text">,
  sort: ProductSort,
  page: Page,
  withFacets: boolean,
): ProductSearchResult {
  const keep = matchesFilters(filters);
  const kept: Ranked[] = [];
  if (matches) {
    for (let i = 0; i < matches.docs.length; i++) {
      const row = rows[matches.docs[i]];
      if (keep(row)) kept.push({ row, rank: matches.ranks[i] });
    }
  } else {
    for (const row of rows) if (keep(row)) kept.push({ row, rank: 0 });
  }
  const products = page.offset >= kept.length ? [] : topOf(kept, ORDERS[sort], page.offset + page.limit).slice(page.offset).map((r) => r.row);
  return { total: kept.length, products, ...(withFacets ? { facets: facetsOf(kept) } : {}) };
}

/** productFacets's counts: by category (most first, then id), by price band (every band, in order; no price, no band). */
function facetsOf(kept: readonly Ranked[]): ProductFacets {
  const categories = new Map<string, CategoryFacet>();
  const bandCounts = PRICE_BANDS.map(() => 0);
  for (const { row } of kept) {
    if (row.category_id !== null) {
      // The SQL groups by (id, name): one entry per pair.
      const key = `${row.category_id}\u0000${row.category_name}`;
      const entry = categories.get(key);
      if (entry) entry.count++;
      else categories.set(key, { id: row.category_id, name: row.category_name!, count: 1 });
    }
    if (row.price !== null) bandCounts[bandIndexOf(row.price)]++;
  }
  return {
    category: [...categories.values()].sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1)),
    price_band: PRICE_BANDS.map((band, i) => ({ id: band.id, min: band.min, max: band.max, count: bandCounts[i] })),
  };
}

/** The SQL's `CASE WHEN price < 10 THEN '0-10' WHEN price < 25 ... ELSE '200+' END`. */
function bandIndexOf(price: number): number {
  const index = PRICE_BANDS.findIndex((band) => band.max !== null && price < band.max);
  return index === -1 ? PRICE_BANDS.length - 1 : index;
}

/** unknownCategories over the rows in memory: the ids no product has and, only then, every id products have (byte order). */
export function unknownCategoriesIn(rows: readonly ProductRecord[], ids: readonly string[]): { unknown: string[]; known: string[] } {
  const present = categoryIdsOf(rows);
  const unknown = ids.filter((id) => !present.has(id));
  return unknown.length === 0 ? { unknown, known: [] } : { unknown, known: [...present].sort(byteOrder) };
}

const categoryIdsByRows = new WeakMap<readonly ProductRecord[], ReadonlySet<string>>();

/** The category ids of a snapshot's rows, counted once per snapshot (a category filter checks them on every search). */
function categoryIdsOf(rows: readonly ProductRecord[]): ReadonlySet<string> {
  let ids = categoryIdsByRows.get(rows);
  if (!ids) {
    ids = new Set(rows.flatMap((row) => (row.category_id === null ? [] : [row.category_id])));
    categoryIdsByRows.set(rows, ids);
  }
  return ids;
}

/** The first `count` in order: a full sort only when the page reaches deep into the matches. */
function topOf<T>(items: T[], order: (a: T, b: T) => number, count: number): T[] {
  if (count >= items.length / 4) return items.sort(order).slice(0, count);
  const top: T[] = [];
  for (const item of items) {
    if (top.length === count && order(item, top[count - 1]) >= 0) continue;
    let at = top.length;
    while (at > 0 && order(item, top[at - 1]) < 0) at--;
    top.splice(at, 0, item);
    if (top.length > count) top.pop();
  }
  return top;
}
