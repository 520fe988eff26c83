/**
 * POST /hash of a 1 KB text: the full platform stack against the same handler on bare Fastify.
 *   bash scripts/pnpm.sh exec tsx bench/text-toolkit/hash.ts [seconds per run] [connections]   (BENCH_ROUNDS pairs of runs, default 6)
 */
import { comparePlatformToBare } from "../lib/compare.js";
import { HASH_REQUEST } from "../lib/hash-request.js";

await comparePlatformToBare({
  serverScript: "bench/text-toolkit/server.ts",
  ...HASH_REQUEST,
  seconds: Number(process.argv[2] ?? 10),
  connections: Number(process.argv[3] ?? 50),
});
