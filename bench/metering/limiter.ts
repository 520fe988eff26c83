/**
 * What the shared limiter costs a request against the in-process counter: the two modes of bench/metering/server.ts
 * paired in alternating runs (POST /hash of a 1 KB text, per-second limits on, 300 MEGA keys taken in turn).
 *   bash scripts/pnpm.sh exec tsx bench/metering/limiter.ts [seconds per run] [connections] [--swap]
 * BENCH_ROUNDS pairs of runs (default 6); --swap measures redis first in each pair.
 */
import { compareModes } from "../lib/compare.js";
import { HASH_REQUEST } from "../lib/hash-request.js";

await compareModes(
  {
    serverScript: "bench/metering/server.ts",
    ...HASH_REQUEST,
    seconds: Number(process.argv[2] ?? 3),
    connections: Number(process.argv[3] ?? 50),
  },
  process.argv.includes("--swap") ? ["redis", "in-process"] : ["in-process", "redis"],
);
