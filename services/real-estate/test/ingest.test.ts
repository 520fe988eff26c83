import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { startService, untilReady, type StartedService } from "@apiplat/testing";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetSources } from "../src/ingest/datasets.js";
import service from "../src/service.js";
import { datasetsDir } from "./helpers.js";

/** A dataset folder of the files' first rows, with two broken Sacramento records added. */
const scratch = mkdtempSync(path.join(tmpdir(), "real-estate-"));
const head = (file: string, lines: number) =>
  readFileSync(path.join(datasetsDir, "real-estate", file), "utf8")
    .split(/\r?\n/)
    .slice(0, lines + 1);
const sacramento = head("Sacramentorealestatetransactions.csv", 80);
sacramento.push("1 BROKEN RD,SACRAMENTO,95838,CA,2,1,836,Residential,Wed May 21 00:00:00 EDT 2008,abc,38.63,-121.43");
sacramento.push("2 BROKEN RD,SACRAMENTO,95838,CA,2,1,836,Residential,sometime in May,59222,38.63,-121.43");
mkdirSync(path.join(scratch, "real-estate"));
writeFileSync(path.join(scratch, "real-estate/Sacramentorealestatetransactions.csv"), sacramento.join("\n"));
writeFileSync(path.join(scratch, "real-estate/kc_house_data.csv"), head("kc_house_data.csv", 120).join("\n"));
writeFileSync(path.join(scratch, "real-estate/NY-House-Dataset.csv"), head("NY-House-Dataset.csv", 90).join("\n"));

let started: StartedService;
let headers: Record<string, string>;

beforeAll(async () => {
  started = await startService(service, { settings: { autoLoad: true }, env: { DATASETS_DIR: scratch } });
  headers = (await started.subscribe("PRO")).headers;
  await untilReady(started.app); // the first load
}, 90_000);
afterAll(async () => {
  await started.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("the first load", () => {
  it("loads every file on a fresh start and fits a model per market", async () => {
    const res = await started.app.inject({ method: "GET", url: "/search?limit=1&facets=true", headers });
    const markets = Object.fromEntries(res.json().data.facets.market.map((f: { value: string; count: number }) => [f.value, f.count]));
    // The first 90 New York rows repeat some listings word for word: one record each.
    const ny = parse(head("NY-House-Dataset.csv", 90).join("\n"), { columns: true }) as Record<string, string>[];
    const distinctListings = new Set(ny.map((r) => `${r.ADDRESS}|${r.STATE}|${r.PRICE}|${r.TYPE}|${r.BROKERTITLE}`)).size;
    expect(distinctListings).toBeLessThan(90);
    expect(markets).toEqual({ "king-county": 120, sacramento: 80, "new-york": distinctListings });
    const { rows } = await started.platform.deps.db.query<{ market: string }>("SELECT market FROM valuation_models ORDER BY market");
    expect(rows.map((r) => r.market)).toEqual(["king-county", "new-york", "sacramento"]);
  });

  it("skips broken records with their line and reason", async () => {
    const { rows } = await started.platform.deps.db.query<{ rows_skipped: number; skipped_examples: { line: number; reason: string }[] }>(
      "SELECT rows_skipped::int AS rows_skipped, skipped_examples FROM ingest_runs WHERE source = 'sacramento-sales'",
    );
    expect(rows[0].rows_skipped).toBe(2);
    expect(rows[0].skipped_examples.map((s) => s.reason)).toEqual([
      'price "abc" is not a number',
      'sale_date "sometime in May" is not a date like "Wed May 21 00:00:00 EDT 2008"',
    ]);
  });

  it("writes nothing on a re-run", async () => {
    const source = datasetSources().find((s) => s.name === "new-york-listings")!;
    const run = await runIngestion(started.platform.deps.db, source, { datasetsDir: scratch, now: () => new Date() });
    expect(run).toMatchObject({ status: "succeeded", rows_read: 90, inserted: 0, updated: 0 });
  });
});
