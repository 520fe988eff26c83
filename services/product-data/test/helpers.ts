/**
 * The product-data service on the real datasets (both files in full: they load in seconds), and the same rows read
 * straight from the files, so that tests compute their expected values independently of the service.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { runIngestions } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { startService, type StartedService } from "@apiplat/testing";
import { parse } from "csv-parse/sync";
import { datasetSources } from "../src/ingest/datasets.js";
import service from "../src/service.js";

export const datasetsDir = loadConfig(process.env).datasetsDir;

export async function startProductData(options: { limit?: number } = {}): Promise<StartedService> {
  const started = await startService(service, { settings: { autoLoad: false } });
  const runs = await runIngestions(started.platform.deps.db, datasetSources(), { datasetsDir, limit: options.limit, now: () => new Date() });
  for (const run of runs) if (run.status !== "succeeded") throw new Error(`${run.source}: ${run.error}`);
  return started;
}

function csv(file: string): Record<string, string>[] {
  return parse(readFileSync(path.join(datasetsDir, "product-data", file)), { columns: true }) as Record<string, string>[];
}

export const caProducts = () => csv("amazon_ca_products.csv");
export interface FineFoodRow {
  Id: string;
  ProductId: string;
  UserId: string;
  ProfileName: string;
  HelpfulnessNumerator: string;
  HelpfulnessDenominator: string;
  Score: string;
  Time: string;
  Summary: string;
  Text: string;
}

export const fineFood = () => csv("amazon_fine_food_reviews_sample.csv") as unknown as FineFoodRow[];

export function getter(started: StartedService, headers: Record<string, string>) {
  return async (url: string, h: Record<string, string> = headers) => {
    const res = await started.app.inject({ method: "GET", url, headers: h });
    return { status: res.statusCode, body: res.json() };
  };
}

export interface FineFoodProduct {
  asin: string;
  reviews: number;
  rated: number;
  /** Stars -> reviews with that rating. */
  histogram: Map<number, number>;
  /** The mean to two decimals, halves up (integer arithmetic, as PostgreSQL's numeric round). */
  rating: number | null;
}

/** The Fine Food file grouped by ASIN: the products known only from their reviews. */
export function fineFoodProducts(): FineFoodProduct[] {
  const byAsin = new Map<string, FineFoodProduct>();
  for (const row of fineFood()) {
    const product = byAsin.get(row.ProductId) ?? { asin: row.ProductId, reviews: 0, rated: 0, histogram: new Map(), rating: null };
    product.reviews++;
    if (row.Score !== "") {
      product.rated++;
      product.histogram.set(Number(row.Score), (product.histogram.get(Number(row.Score)) ?? 0) + 1);
    }
    byAsin.set(row.ProductId, product);
  }
  for (const product of byAsin.values()) {
    const sum = [...product.histogram].reduce((total, [stars, n]) => total + stars * n, 0);
    product.rating = product.rated === 0 ? null : Math.round((sum * 100) / product.rated) / 100;
  }
  return [...byAsin.values()];
}
