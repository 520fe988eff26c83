import { SqlFilter, matchText, type Page, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { PRICE_BANDS } from "../domain/products.js";

export interface ProductRecord {
  asin: string;
  locale: string;
  dataset: string;
  title: string | null;
  brand: string | null;
  image_url: string | null;
  product_url: string | null;
  currency: string | null;
  price: number | null;
  list_price: number | null;
  rating: number | null;
  ratings_count: number | null;
  rating_basis: string;
  category_id: string | null;
  category_name: string | null;
  is_best_seller: boolean | null;
  bought_last_month: number | null;
  review_count: number;
  data_as_of: string | null;
}

export interface ProductFilters {
  text?: TextQuery;
  locales?: string[];
  categories?: string[];
  minPrice?: number;
  maxPrice?: number;
  minRating?: number;
  isBestSeller?: boolean;
}

export const PRODUCT_SORTS = ["relevance", "price_asc", "price_desc", "rating", "reviews", "best_sellers"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const PRODUCT_COLUMNS = `asin, locale, dataset, title, brand, image_url, product_url, currency, price::float8 AS price,
  list_price::float8 AS list_price, rating::float8 AS rating, ratings_count, rating_basis, category_id, category_name,
  is_best_seller, bought_last_month, review_count, data_as_of`;

function buildFilter(filters: ProductFilters): { filter: SqlFilter; rank: string | null } {
  const filter = new SqlFilter();
  const rank = filters.text ? matchText(filter, filters.text, { vector: "document", config: "english" }).rank : null;
  filter
    .oneOf("locale", filters.locales)
    .oneOf("category_id", filters.categories)
    .atLeast("price", filters.minPrice)
    .atLeast("rating", filters.minRating)
    .equals("is_best_seller", filters.isBestSeller);
  if (filters.maxPrice !== undefined) filter.where((p) => `price <= ${p(filters.maxPrice)}`);
  return { filter, rank };
}

/**
 * Every order puts the products with a title first (a record the source names nothing is never ranked above one it
 * names) and ends with the ASIN, so pages never overlap; products without the sorted value come last.
 */
function orderBy(sort: ProductSort, rank: string | null): string {
  return `title IS NULL, ${sortKeys(sort, rank)}`;
}

function sortKeys(sort: ProductSort, rank: string | null): string {
  switch (sort) {
    case "relevance":
      return `${rank ?? "0"} DESC, ratings_count DESC NULLS LAST, asin`;
    case "price_asc":
      return "price ASC NULLS LAST, asin";
    case "price_desc":
      return "price DESC NULLS LAST, asin";
    case "rating":
      return "rating DESC NULLS LAST, ratings_count DESC NULLS LAST, asin";
    case "reviews":
      return "ratings_count DESC NULLS LAST, asin";
    case "best_sellers":
      return "is_best_seller DESC NULLS LAST, bought_last_month DESC NULLS LAST, ratings_count DESC NULLS LAST, asin";
  }
}

export async function searchProducts(
  db: Queryable,
  filters: ProductFilters,
  sort: ProductSort,
  page: Page,
): Promise<{ total: number; products: ProductRecord[] }> {
  const { filter, rank } = buildFilter(filters);
  const countParams = [...filter.params];
  const pageSql = `LIMIT ${filter.param(page.limit)} OFFSET ${filter.param(page.offset)}`;
  const order = orderBy(sort, rank);
  if (rank) {
    // A text search ranks every match anyway: the total rides along with the page.
    const { rows } = await db.query<ProductRecord & { total: number }>(
      `SELECT ${PRODUCT_COLUMNS}, count(*) OVER ()::int AS total FROM products ${filter.sql} ORDER BY ${order} ${pageSql}`,
      filter.params,
    );
    if (rows.length > 0) return { total: rows[0].total, products: rows.map(({ total: _total, ...product }) => product) };
  }
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM products ${filter.sql}`, countParams);
  const total = count.rows[0].n;
  if (rank || total <= page.offset) return { total, products: [] };
  const { rows } = await db.query<ProductRecord>(`SELECT ${PRODUCT_COLUMNS} FROM products ${filter.sql} ORDER BY ${order} ${pageSql}`, filter.params);
  return { total, products: rows };
}

export interface CategoryFacet {
  id: string;
  name: string;
  count: number;
}

export interface PriceBandFacet {
  id: string;
  min: number;
  max: number | null;
  count: number;
}

/** Counts of the matching products by category (most first) and by price band (every band, in order), in one pass. */
export async function productFacets(db: Queryable, filters: ProductFilters): Promise<{ category: CategoryFacet[]; price_band: PriceBandFacet[] }> {
  const { filter } = buildFilter(filters);
  const band = PRICE_BANDS.map((b) => (b.max === null ? `ELSE '${b.id}'` : `WHEN price < ${b.max} THEN '${b.id}'`)).join(" ");
  const { rows } = await db.query<{ id: string | null; name: string | null; band: string | null; count: number; by_category: number }>(
    `SELECT id, name, band, count(*)::int AS count, GROUPING(band) AS by_category
     FROM (SELECT category_id AS id, category_name AS name, CASE WHEN price IS NULL THEN NULL ${band} END AS band FROM products ${filter.sql}) AS matching
     GROUP BY GROUPING SETS ((id, name), (band))`,
    filter.params,
  );
  const category = rows
    .filter((row) => row.by_category === 1 && row.id !== null)
    .map((row) => ({ id: row.id!, name: row.name!, count: row.count }))
    .sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1));
  const byBand = new Map(rows.filter((row) => row.by_category === 0 && row.band !== null).map((row) => [row.band!, row.count]));
  return {
    category,
    price_band: PRICE_BANDS.map((b) => ({ id: b.id, min: b.min, max: b.max, count: byBand.get(b.id) ?? 0 })),
  };
}

export async function findProduct(db: Queryable, asin: string): Promise<ProductRecord | null> {
  const { rows } = await db.query<ProductRecord>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE asin = $1`, [asin]);
  return rows[0] ?? null;
}

/** Which of the given category ids no product has (for a 400 naming them), and, only then, the ids that exist. */
export async function unknownCategories(db: Queryable, ids: readonly string[]): Promise<{ unknown: string[]; known: string[] }> {
  const { rows } = await db.query<{ id: string }>(
    "SELECT id FROM unnest($1::text[]) AS wanted(id) WHERE NOT EXISTS (SELECT 1 FROM products WHERE category_id = wanted.id)",
    [ids],
  );
  if (rows.length === 0) return { unknown: [], known: [] };
  const known = await db.query<{ id: string }>("SELECT DISTINCT category_id AS id FROM products WHERE category_id IS NOT NULL ORDER BY 1");
  return { unknown: rows.map((row) => row.id), known: known.rows.map((row) => row.id) };
}
