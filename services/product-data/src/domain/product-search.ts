/**
 * /search over the products held in memory: every product (a listing) or the matches the TextIndex found (a text
 * search), filtered, counted, sorted and paged exactly as store/products.ts's SQL does. Prices and ratings are the
 * database's numeric(12,2) and numeric(3,2) read as float8: the nearest double of each decimal keeps the decimals'
 * order, and a bound given as a JS number is sent as its shortest decimal, so comparing doubles here gives the
 * numeric comparisons' answers. Products without the filtered value never match; sorts put them last; ties go to the
 * ASIN in byte order.
 */
import { byteOrder, firstInOrder, type Page, type TextMatches } from "@apiplat/catalogue";
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
  const facts = factsOf(rows);
  const counter = withFacets ? new FacetCounter(facts) : null;
  if (!matches) return listRows(rows, facts, filters, sort, page, counter);
  const keep = matchesFilters(filters);
  const kept: Ranked[] = [];
  for (let i = 0; i < matches.docs.length; i++) {
    const row = rows[matches.docs[i]];
    if (!keep(row)) continue;
    kept.push({ row, rank: matches.ranks[i] });
    counter?.add(matches.docs[i]);
  }
  const products = page.offset >= kept.length ? [] : firstInOrder(kept, ORDERS[sort], page.offset + page.limit).slice(page.offset).map((r) => r.row);
  return { total: kept.length, products, ...(counter ? { facets: counter.facets() } : {}) };
}

/** A listing: one pass over the rows already in the sort's order, keeping the page's rows on the way. */
function listRows(
  rows: readonly ProductRecord[],
  facts: RowFacts,
  filters: Omit<ProductFilters, "text">,
  sort: ProductSort,
  page: Page,
  counter: FacetCounter | null,
): ProductSearchResult {
  const keep = matchesFilters(filters);
  const end = page.offset + page.limit;
  const products: ProductRecord[] = [];
  let total = 0;
  for (const at of orderOf(rows, facts, sort)) {
    const row = rows[at];
    if (!keep(row)) continue;
    if (total >= page.offset && total < end) products.push(row);
    counter?.add(at);
    total++;
  }
  return { total, products, ...(counter ? { facets: counter.facets() } : {}) };
}

/** What searches read of a snapshot's rows besides their fields, worked out once per snapshot. */
interface RowFacts {
  /** The distinct (category id, name) pairs, as the SQL's facet groups them. */
  categories: { id: string; name: string }[];
  /** Each row's index in `categories`, -1 without a category. */
  categoryOf: Int32Array;
  /** Each row's price band (index in PRICE_BANDS), -1 without a price. */
  bandOf: Int8Array;
  /** The rows' ordinals in each sort's order (rank 0 for relevance), sorted on first use. */
  orders: Partial<Record<ProductSort, Int32Array>>;
}

const factsByRows = new WeakMap<readonly ProductRecord[], RowFacts>();

function factsOf(rows: readonly ProductRecord[]): RowFacts {
  let facts = factsByRows.get(rows);
  if (facts) return facts;
  const pairs = new Map<string, number>();
  const categories: RowFacts["categories"] = [];
  const categoryOf = new Int32Array(rows.length).fill(-1);
  const bandOf = new Int8Array(rows.length).fill(-1);
  rows.forEach((row, at) => {
    if (row.category_id !== null) {
      const key = JSON.stringify([row.category_id, row.category_name]);
      if (!pairs.has(key)) pairs.set(key, categories.push({ id: row.category_id, name: row.category_name! }) - 1);
      categoryOf[at] = pairs.get(key)!;
    }
    if (row.price !== null) bandOf[at] = bandIndexOf(row.price);
  });
  facts = { categories, categoryOf, bandOf, orders: {} };
  factsByRows.set(rows, facts);
  return facts;
}

function orderOf(rows: readonly ProductRecord[], facts: RowFacts, sort: ProductSort): Int32Array {
  return (facts.orders[sort] ??= Int32Array.from(
    rows
      .map((row, at) => ({ row, rank: 0, at }))
      .sort(ORDERS[sort])
      .map((r) => r.at),
  ));
}

/** productFacets's counts: by category (most first, then id), by price band (every band, in order; no price, no band). */
class FacetCounter {
  private readonly categoryCounts: Int32Array;
  private readonly bandCounts = new Int32Array(PRICE_BANDS.length);

  constructor(private readonly facts: RowFacts) {
    this.categoryCounts = new Int32Array(facts.categories.length);
  }

  add(at: number): void {
    const category = this.facts.categoryOf[at];
    if (category !== -1) this.categoryCounts[category]++;
    const band = this.facts.bandOf[at];
    if (band !== -1) this.bandCounts[band]++;
  }

  facets(): ProductFacets {
    return {
      category: this.facts.categories
        .map((category, i) => ({ ...category, count: this.categoryCounts[i] }))
        .filter((category) => category.count > 0)
        .sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1)),
      price_band: PRICE_BANDS.map((band, i) => ({ id: band.id, min: band.min, max: band.max, count: this.bandCounts[i] })),
    };
  }
}

/** The SQL's `CASE WHEN price < 10 THEN '0-10' WHEN price < 25 ... ELSE '200+' END`. */
function bandIndexOf(price: number): number {
  for (let i = 0; i < PRICE_BANDS.length; i++) {
    const max = PRICE_BANDS[i].max;
    if (max !== null && price < max) return i;
  }
  return PRICE_BANDS.length - 1;
}

/** unknownCategories over the rows in memory: the ids no product has and, only then, every id products have (byte order). */
export function unknownCategoriesIn(rows: readonly ProductRecord[], ids: readonly string[]): { unknown: string[]; known: string[] } {
  const present = categoryIdsOf(rows);
  const unknown = ids.filter((id) => !present.has(id));
  return unknown.length === 0 ? { unknown, known: [] } : { unknown, known: [...present].sort(byteOrder) };
}

/** The category ids of a snapshot's rows (a category filter checks them on every search). */
function categoryIdsOf(rows: readonly ProductRecord[]): ReadonlySet<string> {
  return new Set(factsOf(rows).categories.map((category) => category.id));
}

