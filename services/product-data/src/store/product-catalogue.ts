/**
 * The products held in memory (see @apiplat/catalogue's memoryCatalogue), the one engine of /search, with or without
 * `q`: every product's fields and its weighted tsvector, read again after each ingestion run. 7,730 products take
 * about 21 MB of heap. The database is the store of record the snapshot is read from.
 *
 * Filters, sorts and facets keep the catalogue's semantics. Prices and ratings are the database's numeric(12,2) and
 * numeric(3,2) read as float8: the nearest double of each decimal keeps the decimals' order, and a bound given as a
 * JS number is its shortest decimal, so comparing doubles gives the numeric comparisons' answers. Products without
 * the filtered value never match; sorts put products without a title after every titled one, and those without the
 * sorted value last; ties go to the ASIN in byte order.
 */
import { byteOrder, firstInOrder, memoryCatalogue, rankedSearch, type MemoryCatalogue, type Page, type TextMatches, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { PRICE_BANDS } from "../domain/products.js";
import { PRODUCT_COLUMNS, type ProductRecord, type ProductSort } from "./products.js";

export type ProductCatalogue = MemoryCatalogue<ProductRecord>;

export interface ProductFilters {
  text?: TextQuery;
  locales?: string[];
  categories?: string[];
  minPrice?: number;
  maxPrice?: number;
  minRating?: number;
  isBestSeller?: boolean;
}

interface CategoryFacet {
  id: string;
  name: string;
  count: number;
}

interface PriceBandFacet {
  id: string;
  min: number;
  max: number | null;
  count: number;
}

interface ProductFacets {
  category: CategoryFacet[];
  price_band: PriceBandFacet[];
}

interface ProductSearchResult {
  total: number;
  products: ProductRecord[];
  facets?: ProductFacets;
}

export function productCatalogue(db: Queryable): ProductCatalogue {
  return memoryCatalogue(db, async (db) => {
    const { rows } = await db.query<ProductRecord & { vector: string | null }>(`SELECT ${PRODUCT_COLUMNS}, document::text AS vector FROM products`);
    const shared = new Map<string | null, string | null>();
    const share = (text: string | null) => (shared.has(text) ? shared.get(text)! : (shared.set(text, text), text));
    return { rows: rows.map((row) => heldRecord(row, share)), vectors: { document: rows.map((row) => row.vector) } };
  });
}

/**
 * A row as held for searching: every record built by the same literal, so that the search's loops read their fields
 * through one hidden class (the driver's rows, of varied field types, made those reads several times slower), and the
 * few distinct locales and categories as one string each, so that counting them compares pointers.
 */
function heldRecord(row: ProductRecord, share: (text: string | null) => string | null): ProductRecord {
  return {
    asin: row.asin,
    locale: share(row.locale) as ProductRecord["locale"],
    dataset: share(row.dataset)!,
    title: row.title,
    brand: row.brand,
    image_url: row.image_url,
    product_url: row.product_url,
    currency: share(row.currency),
    price: row.price,
    list_price: row.list_price,
    rating: row.rating,
    ratings_count: row.ratings_count,
    rating_basis: share(row.rating_basis) as ProductRecord["rating_basis"],
    category_id: share(row.category_id),
    category_name: share(row.category_name),
    is_best_seller: row.is_best_seller,
    bought_last_month: row.bought_last_month,
    review_count: row.review_count,
    data_as_of: share(row.data_as_of),
  };
}

/** A search's view of the catalogue: the current products and, for a text search, its matches. */
export interface OpenSearch {
  rows: readonly ProductRecord[];
  /** The text search's matches and ranks; null for a listing (every product). */
  matches: TextMatches | null;
}

/**
 * The current snapshot and the query matched in it: one round trip (the tsquery compiled by the database, and the
 * catalogue's version). A listing asks only the version.
 */
export async function openSearch(catalogue: ProductCatalogue, text: TextQuery | undefined): Promise<OpenSearch> {
  if (!text) return { rows: (await catalogue.current()).rows, matches: null };
  return rankedSearch(catalogue, "document", text, "english");
}

/** /search over the products of an open search. */
export function findProducts(search: OpenSearch, filters: ProductFilters, sort: ProductSort, page: Page, withFacets: boolean): ProductSearchResult {
  const { text: _text, ...rest } = filters;
  return searchRows(search.rows, search.matches, rest, sort, page, withFacets);
}

interface Ranked {
  row: ProductRecord;
  rank: number;
}

/**
 * Which rows (`among` them, or all) pass the filters, as a mask by row (1: kept), or null when no filter is given. One tight loop per given
 * filter over the snapshot's columns: NaN stands for a missing price or rating and fails every comparison, as NULL
 * fails SQL's.
 */
function passing(facts: RowFacts, filters: Omit<ProductFilters, "text">, among: Int32Array | null): Uint8Array | null {
  const { locales, categories, minPrice, maxPrice, minRating, isBestSeller } = filters;
  const bounded = [minPrice, maxPrice, minRating, isBestSeller].some((value) => value !== undefined);
  if (!locales?.length && !categories?.length && !bounded) return null;
  const mask = facts.mask.fill(1);
  // A text search reads the mask at its matches only: only they are tested.
  const keepWhere = (test: (at: number) => boolean) => {
    if (among) {
      for (let i = 0; i < among.length; i++) if (mask[among[i]] === 1 && !test(among[i])) mask[among[i]] = 0;
    } else {
      for (let at = 0; at < mask.length; at++) if (mask[at] === 1 && !test(at)) mask[at] = 0;
    }
  };
  if (locales?.length) {
    const wanted = new Set(locales);
    const accepted = facts.locales.map((locale) => wanted.has(locale));
    keepWhere((at) => accepted[facts.localeOf[at]]);
  }
  if (categories?.length) {
    const wanted = new Set(categories);
    const accepted = facts.categories.map((category) => wanted.has(category.id));
    keepWhere((at) => facts.categoryOf[at] !== -1 && accepted[facts.categoryOf[at]]);
  }
  const { price, rating, bestSeller } = facts;
  if (minPrice !== undefined) keepWhere((at) => price[at] >= minPrice);
  if (maxPrice !== undefined) keepWhere((at) => price[at] <= maxPrice);
  if (minRating !== undefined) keepWhere((at) => rating[at] >= minRating);
  if (isBestSeller !== undefined) keepWhere((at) => bestSeller[at] === (isBestSeller ? 1 : 0));
  return mask;
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

const SORT_KEYS: Record<ProductSort, (a: Ranked, b: Ranked) => number> = {
  relevance: (a, b) => b.rank - a.rank || mostRated(a, b),
  price_asc: (a, b) => ascNullsLast(a.row.price, b.row.price) || byAsin(a, b),
  price_desc: (a, b) => descNullsLast(a.row.price, b.row.price) || byAsin(a, b),
  rating: (a, b) => descNullsLast(a.row.rating, b.row.rating) || mostRated(a, b),
  reviews: mostRated,
  best_sellers: (a, b) =>
    descNullsLast(a.row.is_best_seller, b.row.is_best_seller) || descNullsLast(a.row.bought_last_month, b.row.bought_last_month) || mostRated(a, b),
};

/** The SQL's `title IS NULL` first: products the source names nothing come after every titled one, in each sort. */
const titledFirst = (a: Ranked, b: Ranked) => Number(a.row.title === null) - Number(b.row.title === null);

const ORDERS = Object.fromEntries(Object.entries(SORT_KEYS).map(([sort, keys]) => [sort, (a: Ranked, b: Ranked) => titledFirst(a, b) || keys(a, b)])) as Record<
  ProductSort,
  (a: Ranked, b: Ranked) => number
>;

/** A search over `rows`: `matches` the text search's matches and ranks, or null for a listing (every row, rank 0). */
function searchRows(
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
  const mask = passing(facts, filters, matches.docs);
  const kept: Ranked[] = [];
  for (let i = 0; i < matches.docs.length; i++) {
    if (mask !== null && mask[matches.docs[i]] === 0) continue;
    kept.push({ row: rows[matches.docs[i]], rank: matches.ranks[i] });
    counter?.add(matches.docs[i]);
  }
  const products =
    page.offset >= kept.length
      ? []
      : firstInOrder(kept, ORDERS[sort], page.offset + page.limit)
          .slice(page.offset)
          .map((r) => r.row);
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
  const mask = passing(facts, filters, null);
  const end = page.offset + page.limit;
  const products: ProductRecord[] = [];
  const order = orderOf(rows, facts, sort);
  if (mask === null && !counter) {
    return { total: rows.length, products: Array.from(order.subarray(page.offset, end), (at) => rows[at]) };
  }
  let total = 0;
  for (let i = 0; i < order.length; i++) {
    const at = order[i];
    if (mask !== null && mask[at] === 0) continue;
    if (total >= page.offset && total < end) products.push(rows[at]);
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
  /** The distinct locales, and each row's index among them. */
  locales: string[];
  localeOf: Int32Array;
  /** Each row's price and rating, NaN without one. */
  price: Float64Array;
  rating: Float64Array;
  /** Each row's best-seller flag: 1, 0, or -1 when unknown. */
  bestSeller: Int8Array;
  /** The filters' work space (a search never awaits, so one uses it at a time). */
  mask: Uint8Array;
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
  const locales = [...new Set(rows.map((row) => row.locale))];
  const localeIndex = new Map(locales.map((locale, i) => [locale, i]));
  facts = {
    categories,
    categoryOf,
    bandOf,
    locales,
    localeOf: Int32Array.from(rows, (row) => localeIndex.get(row.locale)!),
    price: Float64Array.from(rows, (row) => row.price ?? Number.NaN),
    rating: Float64Array.from(rows, (row) => row.rating ?? Number.NaN),
    bestSeller: Int8Array.from(rows, (row) => (row.is_best_seller === null ? -1 : row.is_best_seller ? 1 : 0)),
    mask: new Uint8Array(rows.length),
    orders: {},
  };
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

/** The facet counts: by category (most first, then id), by price band (every band, in order; no price, no band). */
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

/** The category ids no product has and, only then, every id products have (byte order). */
export function unknownCategoriesIn(rows: readonly ProductRecord[], ids: readonly string[]): { unknown: string[]; known: string[] } {
  const present = categoryIdsOf(rows);
  const unknown = ids.filter((id) => !present.has(id));
  return unknown.length === 0 ? { unknown, known: [] } : { unknown, known: [...present].sort(byteOrder) };
}

/** The category ids of a snapshot's rows (a category filter checks them on every search). */
function categoryIdsOf(rows: readonly ProductRecord[]): ReadonlySet<string> {
  return new Set(factsOf(rows).categories.map((category) => category.id));
}
