/**
 * Accuracy of GET /estimate on King County: a fixed-seed 10 % of the sales is held out, the catalogue (and so the
 * fitted model, its calibration and every comparable) is built from the other 90 % only, then each held-out sale is
 * valued over HTTP from the attributes the API takes (lat, lon, sqft, bedrooms, bathrooms, year_built) at its sale
 * date. Reports the median absolute percentage error and how many sales fall inside [price_low, price_high].
 *   bash scripts/pnpm.sh exec tsx bench/real-estate/evaluate-avm.ts
 * Env: AVM_SEED (default 42), AVM_HOLDOUT (share, default 0.1), BENCH_EMBEDDED=1 for PGlite instead of PostgreSQL,
 *      DATASETS_DIR (default ../shared/datasets).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { startService } from "@apiplat/testing";
import { datasetSources } from "../../services/real-estate/src/ingest/datasets.js";
import { seededRandom } from "../../services/real-estate/src/domain/valuation.js";
import service from "../../services/real-estate/src/service.js";

// csv-parse is a dependency of the service's tests, not of the root package.
const { parse } = createRequire(new URL("../../services/real-estate/package.json", import.meta.url))("csv-parse/sync") as {
  parse: (input: string, options: { columns: true }) => Record<string, string>[];
};

const seed = Number(process.env.AVM_SEED ?? 42);
const holdoutShare = Number(process.env.AVM_HOLDOUT ?? 0.1);
const datasetsDir = loadConfig(process.env).datasetsDir;
const file = path.join(datasetsDir, "real-estate/kc_house_data.csv");

const [header, ...lines] = readFileSync(file, "utf8").split(/\r?\n/).filter((l) => l.trim());
const random = seededRandom(seed);
const order = lines.map((_, i) => i);
for (let i = order.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [order[i], order[j]] = [order[j], order[i]];
}
const heldOut = new Set(order.slice(0, Math.round(lines.length * holdoutShare)));
const training = lines.filter((_, i) => !heldOut.has(i));
const tests = (parse([header, ...lines.filter((_, i) => heldOut.has(i))].join("\n"), { columns: true }) as Record<string, string>[]);

const scratch = mkdtempSync(path.join(tmpdir(), "avm-"));
mkdirSync(path.join(scratch, "real-estate"), { mode: 0o700 });
writeFileSync(path.join(scratch, "real-estate/kc_house_data.csv"), [header, ...training].join("\n"), { mode: 0o600 });

const started = await startService(service, { embedded: process.env.BENCH_EMBEDDED === "1", settings: { autoLoad: false } });
try {
  const source = datasetSources().find((s) => s.name === "king-county-sales")!;
  const t0 = Date.now();
  const run = await runIngestion(started.platform.deps.db, source, { datasetsDir: scratch, now: () => new Date() });
  if (run.status !== "succeeded") throw new Error(run.error);
  console.log(`trained on ${run.rows_read} sales (ingestion, fit and calibration ${((Date.now() - t0) / 1000).toFixed(1)} s); ${tests.length} held out (seed ${seed})`);
  const { headers } = await started.subscribe("MEGA");
  const apes: number[] = [];
  let inside = 0;
  const byConfidence: Record<string, number[]> = {};
  for (const sale of tests) {
    const date = `${sale.date.slice(0, 4)}-${sale.date.slice(4, 6)}-${sale.date.slice(6, 8)}`;
    const params = new URLSearchParams({
      lat: sale.lat, lon: sale.long, sqft: sale.sqft_living, bedrooms: sale.bedrooms, bathrooms: sale.bathrooms, year_built: sale.yr_built, date,
    });
    const res = await started.app.inject({ method: "GET", url: `/estimate?${params}`, headers });
    if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    const estimate = res.json().data;
    const actual = Number(sale.price);
    const ape = Math.abs(estimate.price - actual) / actual;
    apes.push(ape);
    (byConfidence[estimate.confidence] ??= []).push(ape);
    if (actual >= estimate.price_low && actual <= estimate.price_high) inside++;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  console.log(`median absolute percentage error: ${pct(median(apes))} (target <= 12 %)`);
  console.log(`within 10 %: ${pct(apes.filter((a) => a <= 0.1).length / apes.length)}, within 20 %: ${pct(apes.filter((a) => a <= 0.2).length / apes.length)}`);
  console.log(`interval coverage: ${pct(inside / tests.length)} of held-out sales inside [price_low, price_high] (stated 80 %)`);
  for (const [level, list] of Object.entries(byConfidence)) console.log(`  confidence ${level}: ${list.length} sales, median error ${pct(median(list))}`);
} finally {
  await started.close();
  rmSync(scratch, { recursive: true, force: true });
}
