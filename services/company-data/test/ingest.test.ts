import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runIngestions } from "@apiplat/catalogue";
import type { StartedService } from "@apiplat/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetSources } from "../src/ingest/datasets.js";
import { datasetsDir, fortuneRows, getter, startCompanyData } from "./helpers.js";

let started: StartedService;
let scratch: string;

/** The real files, with two damaged rows appended to a copy of the Fortune 1000 file. */
function damagedCopy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "company-data-"));
  mkdirSync(path.join(dir, "company-data"));
  for (const file of readdirSync(path.join(datasetsDir, "company-data"))) {
    if (file !== "fortune_1000_2021.csv") symlinkSync(path.join(datasetsDir, "company-data", file), path.join(dir, "company-data", file));
  }
  const original = readFileSync(path.join(datasetsDir, "company-data/fortune_1000_2021.csv"), "utf8").trimEnd();
  writeFileSync(
    path.join(dir, "company-data/fortune_1000_2021.csv"),
    `${original}\nBroken Co,first,0,1,1,10,Energy,Austin,TX,no,no,no,yes,,A. Person,https://broken.example,BRKN,5\nShort Row,1001,0\n`,
  );
  return dir;
}

beforeAll(async () => {
  started = await startCompanyData({ load: false });
  scratch = damagedCopy();
});
afterAll(async () => {
  await started.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe("dataset ingestion", () => {
  it("reports and skips malformed rows, and a re-run writes nothing", async () => {
    const db = started.platform.deps.db;
    const context = { datasetsDir: scratch, now: () => new Date() };
    const first = await runIngestions(db, datasetSources(), context);
    const fortune = first.find((r) => r.source === "fortune-1000")!;
    const rows = fortuneRows().length;
    expect(fortune).toMatchObject({ status: "succeeded", rows_read: rows + 2, inserted: rows, rows_skipped: 2 });
    expect(fortune.skipped).toEqual([
      { line: rows + 1, reason: 'rank "first" is not a whole number' },
      { line: rows + 2, reason: "the record has a different number of fields than the header" },
    ]);
    for (const run of first) expect(run.status, run.source).toBe("succeeded");

    const before = await db.query<{ id: string; version: string }>("SELECT id, xmin::text AS version FROM companies ORDER BY id");
    expect(before.rows.length).toBeGreaterThan(9000);
    const again = await runIngestions(db, datasetSources(), context);
    for (const run of again) expect(run, run.source).toMatchObject({ status: "succeeded", inserted: 0, updated: 0 });
    const after = await db.query<{ id: string; version: string }>("SELECT id, xmin::text AS version FROM companies ORDER BY id");
    expect(after.rows).toEqual(before.rows);
  }, 180_000);

  it("lists every dataset with its attribution and latest run under GET /sources", async () => {
    const get = getter(started, (await started.subscribe("BASIC")).headers);
    const { status, data } = await get("/sources");
    expect(status).toBe(200);
    const datasets = data.datasets as { name: string; licence: string; runs: number; last_run: { rows_skipped: number } }[];
    expect(datasets.map((d) => d.name)).toEqual(["sec-tickers", "edgar-submissions", "fortune-1000", "dbpedia-abstracts", "pdl-sample", "edgar-daily-index"]);
    const fortune = datasets.find((d) => d.name === "fortune-1000")!;
    expect(fortune).toMatchObject({ runs: 2, last_run: { rows_skipped: 2 } });
    expect(fortune.licence).toContain("unclear");
    expect(datasets.find((d) => d.name === "dbpedia-abstracts")!.licence).toBe("CC BY-SA and GNU FDL (the dataset's readme.txt)");
  });
});
