/**
 * The files of ../shared/datasets/product-data (see its SOURCE.md) as ingestion sources. Both share one `finish`,
 * run once after the last of them: products known only from reviews are created, every product's review
 * aggregates are refreshed, then the search vocabulary and the planner's statistics.
 */
import path from "node:path";
import { MalformedRow, readCsv, type IngestionSource, type UpsertCounts } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { amazonCaProduct, fineFoodReview, InvalidRecord, type ProductRow, type ReviewRow } from "../domain/products.js";
import { finishCatalogue, upsertProducts, upsertReviews } from "../store/catalogue-writes.js";

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

type ProductDataSource = IngestionSource<Record<string, string>, ProductRow> | IngestionSource<Record<string, string>, ReviewRow>;

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
