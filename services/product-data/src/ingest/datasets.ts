/**
 * The files of ../shared/datasets/product-data (see its SOURCE.md) as ingestion sources. Both share one `finish`,
 * run once after the last of them: products known only from reviews are created, every product's review
 * aggregates are refreshed, then the search vocabulary and the planner's statistics.
 */
import path from "node:path";
import { MalformedRow, readCsv, refreshVocabulary, settleTables, upsertRows, type IngestionSource, type UpsertCounts } from "@apiplat/catalogue";
import type { Database, Queryable } from "@apiplat/storage";
import { amazonCaProduct, fineFoodReview, InvalidRecord, type ProductRow, type ReviewRow } from "../domain/products.js";
import { refreshReviewAggregates } from "../store/reviews.js";

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
async function finishCatalogue(db: Database): Promise<void> {
  await refreshReviewAggregates(db);
  await refreshVocabulary(
    db,
    `SELECT coalesce(title, '') || ' ' || coalesce(category_name, '') FROM products
     UNION ALL SELECT coalesce(title, '') || ' ' || coalesce(body, '') FROM reviews`,
  );
  await settleTables(db, ["products", "reviews"]);
}

function csvSource<Row>(options: {
  name: string;
  file: string;
  attribution: Omit<IngestionSource["attribution"], "file">;
  toRow: (record: Record<string, string>, line: number) => Row;
  upsert: (db: Queryable, rows: Row[]) => Promise<UpsertCounts>;
}): IngestionSource<Record<string, string>, Row> {
  return {
    name: options.name,
    attribution: { file: `product-data/${options.file}`, ...options.attribution },
    read: (context) => readCsv(path.join(context.datasetsDir, "product-data", options.file), context),
    toRows(record, _context, line) {
      try {
        return [options.toRow(record, line)];
      } catch (error) {
        if (error instanceof InvalidRecord) throw new MalformedRow(error.message);
        throw error;
      }
    },
    upsert: options.upsert,
    finish: finishCatalogue,
  };
}

export type ProductDataSource = IngestionSource<Record<string, string>, ProductRow> | IngestionSource<Record<string, string>, ReviewRow>;

export function datasetSources(): ProductDataSource[] {
  return [
    csvSource({
      name: "amazon-ca-products",
      file: "amazon_ca_products.csv",
      attribution: {
        title: "Amazon Canada Products 2023, a sample of 6,999 amazon.ca products (Motorcycle Accessories & Parts, Industrial & Scientific), prices in CAD",
        upstream: 'Kaggle asaniczka "Amazon Canada Products 2023 (2.1M products)"',
        licence: "ODC-By 1.0, attribution required (as understood from the Kaggle page; not re-checked offline)",
        copied_from: "github.com/saifutdinov2008/rec_sys_amazon @ 8ccc54e4a58d96c7fb0ac1eda825f9e126fad3a3 (amz_ca_total_products_data_processed.csv)",
      },
      toRow: amazonCaProduct,
      upsert: upsertProducts,
    }),
    csvSource({
      name: "fine-food-reviews",
      file: "amazon_fine_food_reviews_sample.csv",
      attribution: {
        title: "Amazon Fine Food Reviews, the first 5,003 reviews (731 amazon.com products, 2000 to 2012)",
        upstream:
          'SNAP "Amazon Fine Food Reviews": J. McAuley and J. Leskovec, "From amateurs to connoisseurs: modeling the evolution of user expertise through online reviews", WWW 2013 (Kaggle snap/amazon-fine-food-reviews)',
        licence: "CC0 1.0 (as stated on the Kaggle page; recalled, not re-checked offline); cite the SNAP paper",
        copied_from: "github.com/MounikaKoppole/Amazon-Reviews-Sentimental-Analysis @ 7ea7588c3ec1a168eaf660e6bfe66cdeb7cda16c (Reviews.csv)",
      },
      toRow: fineFoodReview,
      upsert: upsertReviews,
    }),
  ];
}
