/** What an ingestion writes: products and reviews by natural key, then what is derived from them. */
import { refreshVocabulary, settleTables, upsertRows, type UpsertCounts } from "@apiplat/catalogue";
import type { Database, Queryable } from "@apiplat/storage";
import type { ProductRow, ReviewRow } from "../domain/products.js";
import { refreshReviewAggregates } from "./reviews.js";

const PRODUCT_COLUMNS = [
  "asin",
  "locale",
  "dataset",
  "title",
  "brand",
  "image_url",
  "product_url",
  "currency",
  "price",
  "list_price",
  "rating",
  "ratings_count",
  "rating_basis",
  "category_id",
  "category_name",
  "is_best_seller",
  "bought_last_month",
  "data_as_of",
  "revision",
] as const;
const REVIEW_COLUMNS = [
  "id",
  "asin",
  "locale",
  "dataset",
  "rating",
  "title",
  "body",
  "author",
  "author_id",
  "reviewed_on",
  "helpful_votes",
  "total_votes",
  "verified_purchase",
  "revision",
] as const;

export function upsertProducts(db: Queryable, rows: ProductRow[]): Promise<UpsertCounts> {
  return upsertRows(db, { table: "products", key: ["asin"], columns: PRODUCT_COLUMNS, revision: "revision" }, rows);
}

export function upsertReviews(db: Queryable, rows: ReviewRow[]): Promise<UpsertCounts> {
  return upsertRows(db, { table: "reviews", key: ["id"], columns: REVIEW_COLUMNS, revision: "revision" }, rows);
}

/** Shared by every source, so that a run of several sources does it once, after the last. */
export async function finishCatalogue(db: Database): Promise<void> {
  await refreshReviewAggregates(db);
  await refreshVocabulary(
    db,
    `SELECT coalesce(title, '') || ' ' || coalesce(category_name, '') FROM products
     UNION ALL SELECT coalesce(title, '') || ' ' || coalesce(body, '') FROM reviews`,
  );
  await settleTables(db, ["products", "reviews"]);
}
