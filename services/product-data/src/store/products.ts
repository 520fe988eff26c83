import type { Queryable } from "@apiplat/storage";

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

export const PRODUCT_SORTS = ["relevance", "price_asc", "price_desc", "rating", "reviews", "best_sellers"] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

export const PRODUCT_COLUMNS = `asin, locale, dataset, title, brand, image_url, product_url, currency, price::float8 AS price,
  list_price::float8 AS list_price, rating::float8 AS rating, ratings_count, rating_basis, category_id, category_name,
  is_best_seller, bought_last_month, review_count, data_as_of`;

export async function findProduct(db: Queryable, asin: string): Promise<ProductRecord | null> {
  const { rows } = await db.query<ProductRecord>(`SELECT ${PRODUCT_COLUMNS} FROM products WHERE asin = $1`, [asin]);
  return rows[0] ?? null;
}
