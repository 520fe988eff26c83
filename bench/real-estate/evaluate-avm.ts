/**
 * Accuracy of GET /estimate on King County, over HTTP (the service listens on 127.0.0.1; every estimate is a real
 * request to it), in two parts:
 *
 * 1. Held out: a fixed-seed 10 % of the sales is held out, the catalogue (and so the fitted model, its calibration
 *    and every comparable) is built from the other 90 % only, then each held-out sale is valued from the attributes
 *    the API takes (lat, lon, sqft, bedrooms, bathrooms, year_built) at its sale date.
 * 2. In the catalogue: a fixed-seed sample of the catalogue's own sales, valued the same way. This is what a customer
 *    does who asks for a house the catalogue has sold: the sale itself must never be one of its comparables (nor
 *    another sale of its parcel), and the interval must hold as stated.
 *
 * Each part reports the median absolute percentage error, the share of prices inside [price_low, price_high] (the
 * stated 80 % interval), and how many estimates had the subject's parcel among their comparables (must be 0).
 *   bash scripts/pnpm.sh exec tsx bench/real-estate/evaluate-avm.ts
 * Env: AVM_SEED (default 42), AVM_HOLDOUT (share, default 0.1), AVM_IN_CATALOGUE (sales of part 2, default 2000),
 *      DATASETS_DIR (default ../shared/datasets).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import path from "node:path";
import { runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { seededRandom, startService } from "@apiplat/testing";
import { datasetSources } from "../../services/real-estate/src/ingest/datasets.js";
import service from "../../services/real-estate/src/service.js";

// csv-parse is a dependency of the service's tests, not of the root package.
const { parse } = createRequire(new URL("../../services/real-estate/package.json", import.meta.url))("csv-parse/sync") as {
  parse: (input: string, options: { columns: true }) => Record<string, string>[];
};

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

const seed = Number(process.env.AVM_SEED ?? 42);
const holdoutShare = Number(process.env.AVM_HOLDOUT ?? 0.1);
const inCatalogueCount = Number(process.env.AVM_IN_CATALOGUE ?? 2000);
const datasetsDir = loadConfig(process.env).datasetsDir;
const file = path.join(datasetsDir, "real-estate/kc_house_data.csv");

const [header, ...lines] = readFileSync(file, "utf8")
  .split(/\r?\n/)
  .filter((l) => l.trim());
const random = seededRandom(seed);
const order = shuffled(
  lines.map((_, i) => i),
  random,
);
const heldOut = new Set(order.slice(0, Math.round(lines.length * holdoutShare)));
const training = lines.filter((_, i) => !heldOut.has(i));
const rowsOf = (kept: string[]) => parse([header, ...kept].join("\n"), { columns: true });
const heldOutSales = rowsOf(lines.filter((_, i) => heldOut.has(i)));
const catalogueSales = shuffled(rowsOf(training), seededRandom(seed + 1)).slice(0, inCatalogueCount);

const scratch = mkdtempSync(path.join(tmpdir(), "avm-"));
mkdirSync(path.join(scratch, "real-estate"), { mode: 0o700 });
writeFileSync(path.join(scratch, "real-estate/kc_house_data.csv"), [header, ...training].join("\n"), { mode: 0o600 });

interface Estimate {
  price: number;
  price_low: number;
  price_high: number;
  confidence: string;
  comparables: { id: string; distance_km: number; similarity: number }[];
  last_sale?: { id: string } | null;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

const started = await startService(service, { settings: { autoLoad: false }, listen: true });
try {
  const source = datasetSources().find((s) => s.name === "king-county-sales")!;
  const t0 = Date.now();
  const run = await runIngestion(started.platform.deps.db, source, { datasetsDir: scratch, now: () => new Date() });
  if (run.status !== "succeeded") throw new Error(run.error);
  console.log(
    `catalogue: ${run.rows_read} sales (ingestion, fit and calibration ${((Date.now() - t0) / 1000).toFixed(1)} s); ${heldOutSales.length} held out (seed ${seed})`,
  );
  const { headers } = await started.subscribe("MEGA");

  async function evaluate(name: string, sales: Record<string, string>[]): Promise<void> {
    const apes: number[] = [];
    let inside = 0;
    let ownAmongComparables = 0;
    let atDistanceZero = 0;
    let withLastSale = 0;
    const byConfidence: Record<string, number[]> = {};
    for (const sale of sales) {
      const date = `${sale.date.slice(0, 4)}-${sale.date.slice(4, 6)}-${sale.date.slice(6, 8)}`;
      const params = new URLSearchParams({
        lat: sale.lat,
        lon: sale.long,
        sqft: sale.sqft_living,
        bedrooms: sale.bedrooms,
        bathrooms: sale.bathrooms,
        year_built: sale.yr_built,
        date,
      });
      const res = await fetch(`${started.url}/estimate?${params}`, { headers });
      if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
      const estimate = ((await res.json()) as { data: Estimate }).data;
      const actual = Number(sale.price);
      const ape = Math.abs(estimate.price - actual) / actual;
      apes.push(ape);
      (byConfidence[estimate.confidence] ??= []).push(ape);
      if (actual >= estimate.price_low && actual <= estimate.price_high) inside++;
      if (estimate.comparables.some((c) => c.id.startsWith(`kc-${sale.id}-`))) ownAmongComparables++;
      if (estimate.comparables.some((c) => c.distance_km === 0 && c.similarity === 1)) atDistanceZero++;
      if (estimate.last_sale) withLastSale++;
    }
    console.log(`\n${name}: ${sales.length} estimates over HTTP`);
    console.log(`  median absolute percentage error: ${pct(median(apes))}`);
    console.log(
      `  within 10 %: ${pct(apes.filter((a) => a <= 0.1).length / apes.length)}, within 20 %: ${pct(apes.filter((a) => a <= 0.2).length / apes.length)}`,
    );
    console.log(`  inside [price_low, price_high]: ${pct(inside / sales.length)} (stated 80 %)`);
    console.log(`  the subject's parcel among the comparables: ${ownAmongComparables}; a comparable at distance 0 and similarity 1: ${atDistanceZero}`);
    console.log(`  with last_sale: ${withLastSale}`);
    for (const level of ["high", "medium", "low"]) {
      const list = byConfidence[level] ?? [];
      if (list.length) console.log(`  confidence ${level}: ${list.length} estimates, median error ${pct(median(list))}`);
    }
  }

  await evaluate("held-out sales (not in the catalogue)", heldOutSales);
  await evaluate("sales of the catalogue (valued by their own attributes)", catalogueSales);
} finally {
  await started.close();
  rmSync(scratch, { recursive: true, force: true });
}
