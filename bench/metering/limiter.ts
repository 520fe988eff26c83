/**
 * What metering costs a request, two modes of bench/metering/server.ts paired in alternating runs:
 *   bash scripts/pnpm.sh exec tsx bench/metering/limiter.ts [seconds per run] [connections] [limiter|usage]
 *     limiter  in-process counter against the shared limiter on Redis (GCRA and the month's counter, one round trip)
 *     usage    the shared limiter with usage written behind against usage written before the answer (the default)
 * POST /hash of a 1 KB text with per-second limits on; BENCH_ROUNDS pairs of runs (default 6).
 */
import { compareModes } from "../lib/compare.js";

const pair = process.argv[4] ?? "limiter";
const modes: Record<string, [string, string]> = { limiter: ["in-process", "redis"], usage: ["redis", "durable"] };
if (!modes[pair]) throw new Error(`unknown pair ${pair}: limiter or usage`);
const text = "The quick brown fox jumps over the lazy dog. ".repeat(23).slice(0, 1024);
await compareModes(
  {
    serverScript: "bench/metering/server.ts",
    host: "text-toolkit.api.local",
    method: "POST",
    path: "/hash",
    body: JSON.stringify({ text, algorithm: "sha256" }),
    seconds: Number(process.argv[2] ?? 5),
    connections: Number(process.argv[3] ?? 50),
  },
  modes[pair],
);
