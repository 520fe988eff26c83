/**
 * Ingestion speed and /search latency of company-data at 20 concurrent callers (closed loop: each caller sends its
 * next request when the previous answer arrives), the service pinned to core 0 when taskset exists, on the whole
 * catalogue. Also /company/{id} and /domain/{domain}.
 *   bash scripts/pnpm.sh exec tsx bench/company-data/latency.ts            (PostgreSQL + Redis)
 * Env: BENCH_DURATION (seconds per endpoint, default 20), BENCH_CONCURRENCY (20), BENCH_WARM_UP (seconds, 3).
 * Searches are a fixed mix (seeded): names with and without typos and legal suffixes, tickers, sectors with states
 * and employee floors, industries, and pages of a sector.
 */
import { fileURLToPath } from "node:url";
import { closedLoopTiming, measureEndpoint, NO_CACHE, startBenchServer, type BenchServer } from "../lib/closed-loop.js";
import { seededMix } from "../lib/request-mix.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

const { pick } = seededMix(7);

const NAMES = [
  "apple",
  "Aple Inc",
  "microsoft corp",
  "jonson & jonson",
  "goldman sachs",
  "exxon",
  "walmart",
  "berkshire hathaway",
  "Tesla, Inc.",
  "intel",
  "pfizer",
  "general motors co",
  "boeing",
  "amazon",
  "alphabet",
  "coca cola",
  "procter gamble",
  "lockheed martin",
  "netflix",
  "oracle corporation",
];
const SECTORS = ["Technology", "Financials", "Energy", "Retailing", "Health Care", "Industrials"];

function searchPath(): string {
  const kinds = [
    () => `name=${encodeURIComponent(pick(NAMES))}`,
    () => `name=${encodeURIComponent(pick(NAMES))}`,
    () => `ticker=${pick(["AAPL", "BRK.B", "MSFT", "JPM", "XOM", "MUR", "GOOGL"])}`,
    () => `sector=${encodeURIComponent(pick(SECTORS))}&state=${pick(["CA", "TX", "NY", "IL"])}&min_employees=${pick([1000, 10000, 50000])}`,
    () => `industry=${encodeURIComponent("information technology and services")}`,
    () => `sector=${encodeURIComponent(pick(SECTORS))}&limit=${pick([10, 50, 100])}`,
  ];
  return `/search?${pick(kinds)()}`;
}

const companyPath = () => `/company/${pick(["320193", "0000789019", "717423", "19617", "ty-ku", "tata-consultancy-services"])}`;
const domainPath = () => `/domain/${pick(["apple.com", "www.microsoft.com", "ey.com", "investor.apple.com", "exxonmobil.com"])}`;

type Server = BenchServer & {
  ingest: { source: string; rows: number; seconds: number; rows_per_second: number }[];
  total: { rows: number; seconds: number; rows_per_second: number };
};

const server = await startBenchServer<Server>("bench/company-data/server.ts", root);
try {
  console.log(`store: PostgreSQL; ${closedLoopTiming.callers} concurrent callers; ${closedLoopTiming.seconds} s per endpoint`);
  for (const run of server.ingest) console.log(`ingest ${run.source}: ${run.rows} rows in ${run.seconds.toFixed(1)} s (${run.rows_per_second} rows/s)`);
  console.log(
    `ingest, all sources and the profile merge: ${server.total.rows} rows in ${server.total.seconds.toFixed(1)} s (${server.total.rows_per_second} rows/s)`,
  );
  for (const [name, next, headers] of [
    ["/search (answer cache on: the seeded mix repeats)", searchPath, {}],
    ["/search (Cache-Control: no-cache: every search asked of the database)", searchPath, NO_CACHE],
    ["/company/{id}", companyPath, {}],
    ["/domain/{domain}", domainPath, {}],
  ] as const) {
    await measureEndpoint(server, name, next, closedLoopTiming, headers);
  }
} finally {
  server.stop();
}
