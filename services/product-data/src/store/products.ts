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

const COLUMNS = `asin, locale, dataset, title, brand, image_url, product_url, currency, price::float8 AS price,
  list_price::float8 AS list_price, rating::float8 AS rating, ratings_count, rating_basis, category_id, category_name,
  is_best_seller, bought_last_month, review_count`;

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

/** Every order ends with the ASIN, so pages never overlap; products without the sorted value come last. */
function orderBy(sort: ProductSort, rank: string | null): string {
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
      `SELECT ${COLUMNS}, count(*) OVER ()::int AS total FROM products ${filter.sql} ORDER BY ${order} ${pageSql}`,
      filter.params,
    );
    if (rows.length > 0) return { total: rows[0].total, products: rows.map(({ total: _total, ...product }) => product) };
  }
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM products ${filter.sql}`, countParams);
  const total = count.rows[0].n;
  if (rank || total <= page.offset) return { total, products: [] };
  const { rows } = await db.query<ProductRecord>(`SELECT ${COLUMNS} FROM products ${filter.sql} ORDER BY ${order} ${pageSql}`, filter.params);
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

/** Counts of the matching products by category (most first) and by price band (every band, in order). */
export async function productFacets(db: Queryable, filters: ProductFilters): Promise<{ category: CategoryFacet[]; price_band: PriceBandFacet[] }> {
  const { filter } = buildFilter(filters);
  const and = filter.sql ? "AND" : "WHERE";
  const categories = await db.query<CategoryFacet>(
    `SELECT category_id AS id, category_name AS name, count(*)::int AS count FROM products ${filter.sql} ${and} category_id IS NOT NULL
     GROUP BY 1, 2 ORDER BY 3 DESC, 1`,
    filter.params,
  );
  const bandCase = PRICE_BANDS.map((band) => (band.max === null ? `ELSE '${band.id}'` : `WHEN price < ${band.max} THEN '${band.id}'`)).join(" ");
  const bands = await db.query<{ id: string; count: number }>(
    `SELECT CASE ${bandCase} END AS id, count(*)::int AS count FROM products ${filter.sql} ${and} price IS NOT NULL GROUP BY 1`,
    filter.params,
  );
  const byBand = new Map(bands.rows.map((row) => [row.id, row.count]));
  return {
    category: categories.rows,
    price_band: PRICE_BANDS.map((band) => ({ id: band.id, min: band.min, max: band.max, count: byBand.get(band.id) ?? 0 })),
  };
}

export async function findProduct(db: Queryable, asin: string): Promise<ProductRecord | null> {
  const { rows } = await db.query<ProductRecord>(`SELECT ${COLUMNS} FROM products WHERE asin = $1`, [asin]);
  return rows[0] ?? null;
}

/** Which of the given category ids no product has (for a 400 naming them), and the ids that exist. */
export async function unknownCategories(db: Queryable, ids: readonly string[]): Promise<{ unknown: string[]; known: string[] }> {
  const { rows } = await db.query<{ id: string }>("SELECT DISTINCT category_id AS id FROM products WHERE category_id IS NOT NULL ORDER BY 1");
  const known = rows.map((row) => row.id);
  return { unknown: ids.filter((id) => !known.includes(id)), known };
}
