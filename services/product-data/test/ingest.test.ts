import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIngestions } from "@apiplat/catalogue";
import { startService, type StartedService } from "@apiplat/testing";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetSources } from "../src/ingest/datasets.js";
import service from "../src/service.js";
import { datasetsDir } from "./helpers.js";

/** A dataset folder of the files' first records, with broken ones added at the end. */
const scratch = mkdtempSync(path.join(tmpdir(), "product-data-"));
const CA_ROWS = 300;
const FOOD_ROWS = 400;
const head = (file: string, records: number) => {
  const text = readFileSync(path.join(datasetsDir, "product-data", file), "utf8");
  const all = parse(text, { columns: true }) as Record<string, string>[];
  const header = Object.keys(all[0]);
  const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
  return { header, rows: all.slice(0, records), lines: [header.join(","), ...all.slice(0, records).map((r) => header.map((h) => quote(r[h])).join(","))] };
};
const ca = head("amazon_ca_products.csv", CA_ROWS);
ca.lines.push('"BAD","A title","","https://www.amazon.ca/dp/BAD","4.0","10","19.99","0.0","Industrial  Scientific","False","0"');
ca.lines.push('"B0TESTPRCE","A title","","https://www.amazon.ca/dp/B0TESTPRCE","4.0","10","abc","0.0","Industrial  Scientific","False","0"');
const food = head("amazon_fine_food_reviews_sample.csv", FOOD_ROWS);
food.lines.push("900001,B001E4KFG0,A3SGXH7AUHU8GW,someone,0,0,7,1303862400,A title,A text");
food.lines.push("900002,B001E4KFG0,A3SGXH7AUHU8GW,someone,0,0");
mkdirSync(path.join(scratch, "product-data"));
writeFileSync(path.join(scratch, "product-data/amazon_ca_products.csv"), ca.lines.join("\n"));
writeFileSync(path.join(scratch, "product-data/amazon_fine_food_reviews_sample.csv"), food.lines.join("\n"));

let started: StartedService;
let headers: Record<string, string>;
let duringLoad: { status: number; code: string; ready: number };

beforeAll(async () => {
  started = await startService(service, { settings: { autoLoad: true }, env: { DATASETS_DIR: scratch } });
  headers = (await started.subscribe("PRO")).headers;
  const first = await started.app.inject({ method: "GET", url: "/search", headers });
  duringLoad = { status: first.statusCode, code: first.json().error?.code, ready: (await started.app.inject({ method: "GET", url: "/ready" })).statusCode };
  for (let i = 0; i < 600; i++) {
    if ((await started.app.inject({ method: "GET", url: "/ready" })).statusCode === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the first load did not finish");
}, 90_000);
afterAll(async () => {
  await started.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the first load", () => {
  it("answers 503 while it runs", () => {
    expect(duringLoad).toEqual({ status: 503, code: "UNAVAILABLE", ready: 503 });
  });

  it("loads both files on a fresh start", async () => {
    const res = await started.app.inject({ method: "GET", url: "/search?limit=1&facets=true", headers });
    const asinsOfReviews = new Set(food.rows.map((r) => r.ProductId)).size;
    expect(res.json().data.total_results).toBe(CA_ROWS + asinsOfReviews);
    const reviews = await started.app.inject({ method: "GET", url: `/reviews/${food.rows[0].ProductId}`, headers });
    expect(reviews.json().data.summary.review_count).toBe(food.rows.filter((r) => r.ProductId === food.rows[0].ProductId).length);
  });

  it("reports broken records with their line and reason, and skips them", async () => {
    const { rows } = await started.platform.deps.db.query<{ source: string; rows_skipped: number; skipped_examples: { line: number; reason: string }[] }>(
      "SELECT source, rows_skipped::int AS rows_skipped, skipped_examples FROM ingest_runs ORDER BY id",
    );
    expect(rows).toEqual([
      {
        source: "amazon-ca-products",
        rows_skipped: 2,
        skipped_examples: [
          { line: CA_ROWS + 1, reason: 'asin "BAD" is not an ASIN (10 letters and digits)' },
          { line: CA_ROWS + 2, reason: 'price "abc" is not a number between 0 and 1000000' },
        ],
      },
      {
        source: "fine-food-reviews",
        rows_skipped: 2,
        skipped_examples: [
          { line: FOOD_ROWS + 1, reason: 'Score "7" is not a rating from 1 to 5' },
          { line: FOOD_ROWS + 2, reason: "the record has a different number of fields than the header" },
        ],
      },
    ]);
    expect((await started.app.inject({ method: "GET", url: "/product/B0TESTPRCE", headers })).statusCode).toBe(404);
  });

  it("shows both runs in /sources", async () => {
    const res = await started.app.inject({ method: "GET", url: "/sources", headers });
    expect(
      res
        .json()
        .data.datasets.map((d: { name: string; last_run: { rows_read: number; rows_inserted: number; rows_skipped: number } }) => [
          d.name,
          d.last_run.rows_read,
          d.last_run.rows_inserted,
          d.last_run.rows_skipped,
        ]),
    ).toEqual([
      ["amazon-ca-products", CA_ROWS + 2, CA_ROWS, 2],
      ["fine-food-reviews", FOOD_ROWS + 2, FOOD_ROWS, 2],
    ]);
  });

  it("writes nothing on a re-run", async () => {
    const before = await started.app.inject({ method: "GET", url: `/product/${food.rows[0].ProductId}`, headers });
    const runs = await runIngestions(started.platform.deps.db, datasetSources(), { datasetsDir: scratch, now: () => new Date() });
    expect(runs.map((r) => [r.status, r.rows_read, r.inserted, r.updated, r.unchanged, r.rows_skipped])).toEqual([
      ["succeeded", CA_ROWS + 2, 0, 0, CA_ROWS, 2],
      ["succeeded", FOOD_ROWS + 2, 0, 0, FOOD_ROWS, 2],
    ]);
    const after = await started.app.inject({ method: "GET", url: `/product/${food.rows[0].ProductId}`, headers });
    expect(after.json().data).toEqual(before.json().data);
  });
});
