/**
 * Ingestion speed and latency of the product-data service, on the real PostgreSQL:
 *
 *   bash scripts/pnpm.sh exec tsx bench/product-data/latency.ts                  (PostgreSQL 127.0.0.1:5432, db test + Redis)
 *
 * bench/product-data/server.ts, pinned to core 0 when taskset exists, ingests both files in full and listens. This
 * process then drives it with 20 concurrent callers in a closed loop (each sends its next request when the previous
 * answer arrives): a fixed, seeded mix of /search requests (once answered by the answer cache where the mix repeats,
 * once with Cache-Control: no-cache), then /product and /reviews. CPU per request is the service process's own
 * (/proc/<pid>/stat); PostgreSQL's work is
 * not in it.
 * Env: BENCH_DURATION (seconds per endpoint, default 20), BENCH_CONCURRENCY (20), BENCH_WARM_UP (seconds, 3).
 */
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";
import { closedLoopTiming, measureEndpoint, NO_CACHE, startBenchServer, type BenchServer } from "../lib/closed-loop.js";
import { seededMix } from "../lib/request-mix.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

const { random, pick } = seededMix(17);

const QUERIES = [
  "extension cord",
  "hole saw",
  "motorcycle helmet",
  "led light",
  "windshild",
  "tie down straps",
  "battery charger",
  "dog food",
  "coffee",
  "safety glasses",
  '"hydration bladder"',
  "gloves -work",
];

function searchPath(): string {
  const kinds = [
    () => `q=${encodeURIComponent(pick(QUERIES))}`,
    () => `q=${encodeURIComponent(pick(QUERIES))}&facets=true`,
    () =>
      `category=${pick(["industrial-scientific", "motorcycle-accessories-parts"])}&min_price=${pick([10, 25])}&max_price=${pick([50, 100])}&sort=${pick(["price_asc", "price_desc", "rating"])}`,
    () => `locale=${pick(["CA", "US"])}&min_rating=${pick([4, 4.5])}&sort=${pick(["rating", "reviews", "best_sellers"])}`,
    () => `is_best_seller=true&facets=true`,
    () => `facets=true&sort=best_sellers`,
  ];
  return `/search?${pick(kinds)()}&limit=${pick([10, 10, 20, 50])}`;
}

type Server = BenchServer & {
  ingest: { source: string; rows: number; seconds: number; rows_per_second: number }[];
  asins: { ca: string[]; reviewed: string[] };
};

const server = await startBenchServer<Server>("bench/product-data/server.ts", root);
try {
  console.log(
    `store: PostgreSQL; ${closedLoopTiming.callers} concurrent callers; ${closedLoopTiming.seconds} s per endpoint; load average ${loadavg()[0].toFixed(1)} at start; ${new Date().toISOString()}`,
  );
  for (const run of server.ingest)
    console.log(`ingest ${run.source}: ${run.rows} rows in ${run.seconds.toFixed(1)} s (${run.rows_per_second} rows/s, derived tables included)`);
  const endpoints: [string, () => string, Record<string, string>][] = [
    ["/search (answer cache on: the seeded mix repeats)", searchPath, {}],
    ["/search (Cache-Control: no-cache: every search asked of the database)", searchPath, NO_CACHE],
    ["/product/{asin}", () => `/product/${pick(random() < 0.5 ? server.asins.ca : server.asins.reviewed)}`, {}],
    ["/reviews/{asin}", () => `/reviews/${pick(server.asins.reviewed)}?sort=${pick(["recent", "helpful", "rating"])}`, {}],
  ];
  for (const [name, next, headers] of endpoints) {
    await measureEndpoint(server, name, next, closedLoopTiming, headers);
  }
} finally {
  server.stop();
}
