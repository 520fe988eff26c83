import type { Queryable } from "@apiplat/storage";
import type { ProductRow } from "../domain/products.js";

/** A product as searches and views read it: the row ingestion writes (domain's ProductRow) with its review count. */
export type ProductRecord = Omit<ProductRow, "revision"> & { review_count: number };

export const PRODUCT_SORTS = ["relevance", "price_asc", "price_desc", "rating", "reviews", "best_sellers"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const PRODUCT_COLUMNS = `asin, locale, dataset, title, brand, image_url, product_url, currency, price::float8 AS price,
  list_price::float8 AS list_price, rating::float8 AS rating, ratings_count, rating_basis, category_id, category_name,
  is_best_seller, bought_last_month, review_count, data_as_of`;

export async function findProduct(db: Queryable, asin: string): Promise<ProductRecord | null> {
  const { rows } = await db.query<ProductRecord>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE asin = $1`, [asin]);
  return rows[0] ?? null;
}
