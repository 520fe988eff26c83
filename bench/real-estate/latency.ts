/**
 * Latency of /search and /estimate at 20 concurrent callers (closed loop: each caller sends its next request when
 * the previous answer arrives), the service pinned to core 0 when taskset exists, on the full datasets.
 *   bash scripts/pnpm.sh exec tsx bench/real-estate/latency.ts            (PostgreSQL + Redis)
 * Env: BENCH_DURATION (seconds per endpoint, default 20), BENCH_CONCURRENCY (20), BENCH_WARM_UP (seconds, 3).
 * Requests are a fixed mix (seeded): searches by city, zip, radius, box and filters with sorts and facets; estimates
 * by attributes at points of the three markets and by Sacramento and New York addresses.
 */
import { fileURLToPath } from "node:url";
import { closedLoopTiming, measureEndpoint, NO_CACHE, startBenchServer, type BenchServer } from "../lib/closed-loop.js";
import { seededMix } from "../lib/request-mix.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

const { random, pick } = seededMix(7);

function searchPath(): string {
  const kinds = [
    () => `city=${pick(["Sacramento", "Brooklyn", "Elk Grove", "Staten Island", "Bronx", "Roseville"])}&sort=${pick(["price_asc", "newest", "price_desc"])}`,
    () => `zip=${pick(["98103", "98115", "98052", "95823", "95828", "98038"])}&bedrooms=${pick([2, 3, 4])}`,
    () => `lat=${(47.5 + random() * 0.2).toFixed(4)}&lon=${(-122.35 + random() * 0.2).toFixed(4)}&radius_km=${pick([1, 2, 5])}`,
    () => `lat=${(40.6 + random() * 0.2).toFixed(4)}&lon=${(-74.0 + random() * 0.15).toFixed(4)}&radius_km=2&min_price=300000&max_price=1500000`,
    () => `bbox=-122.4,47.55,-122.25,47.7&min_sqft=1500&sort=price_asc`,
    () => `state=WA&min_price=${pick([400000, 800000])}&bathrooms=2&facets=true`,
    () => `market=new-york&property_type=${pick(["condo", "co_op", "house"])}&status=for_sale`,
  ];
  return `/search?${pick(kinds)()}&limit=${pick([10, 10, 20, 50])}`;
}

function estimatePath(): string {
  const kinds = [
    () =>
      `lat=${(47.35 + random() * 0.4).toFixed(4)}&lon=${(-122.4 + random() * 0.35).toFixed(4)}&sqft=${pick([1200, 1800, 2500])}&bedrooms=3&bathrooms=2&year_built=${pick([1950, 1985, 2005])}`,
    () => `lat=${(38.45 + random() * 0.25).toFixed(4)}&lon=${(-121.5 + random() * 0.2).toFixed(4)}&sqft=${pick([1000, 1500])}&bedrooms=3&bathrooms=2`,
    () =>
      `lat=${(40.6 + random() * 0.2).toFixed(4)}&lon=${(-74.0 + random() * 0.15).toFixed(4)}&sqft=${pick([700, 1100])}&bedrooms=2&bathrooms=1&property_type=condo`,
    () => `address=${encodeURIComponent(pick(["3526 High St, Sacramento", "51 Omaha Ct", "2 E 55th St Unit 803"]))}`,
  ];
  return `/estimate?${pick(kinds)()}`;
}

type Server = BenchServer & {
  ingest: { source: string; rows: number; seconds: number; rows_per_second: number }[];
};

const server = await startBenchServer<Server>("bench/real-estate/server.ts", root);
try {
  console.log(`store: PostgreSQL; ${closedLoopTiming.callers} concurrent callers; ${closedLoopTiming.seconds} s per endpoint`);
  for (const run of server.ingest)
    console.log(`ingest ${run.source}: ${run.rows} rows in ${run.seconds.toFixed(1)} s (${run.rows_per_second} rows/s, model fit and calibration included)`);
  // Coordinates are drawn at random, so few requests repeat: the answer cache rarely answers here.
  for (const [name, next, headers] of [
    ["/search", searchPath, {}],
    ["/search (Cache-Control: no-cache)", searchPath, NO_CACHE],
    ["/estimate", estimatePath, {}],
    ["/estimate (Cache-Control: no-cache)", estimatePath, NO_CACHE],
  ] as const) {
    await measureEndpoint(server, name, next, closedLoopTiming, headers);
  }
} finally {
  server.stop();
}
