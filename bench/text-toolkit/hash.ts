/**
 * POST /hash of a 1 KB text: the full platform stack against the same handler on bare Fastify.
 *   bash scripts/pnpm.sh exec tsx bench/text-toolkit/hash.ts [seconds per run] [connections]   (BENCH_ROUNDS pairs of runs, default 6)
 */
import { comparePlatformToBare } from "../lib/compare.js";

const text = "The quick brown fox jumps over the lazy dog. ".repeat(23).slice(0, 1024);
await comparePlatformToBare({
  serverScript: "bench/text-toolkit/server.ts",
  host: "text-toolkit.api.local",
  method: "POST",
  path: "/hash",
  body: JSON.stringify({ text, algorithm: "sha256" }),
  seconds: Number(process.argv[2] ?? 10),
  connections: Number(process.argv[3] ?? 50),
});
