/**
 * wrk (Debian's package; C, one thread, event-driven) as the load generator: the same closed loop as autocannon's and
 * the benches' own driver (each connection sends its next request when the answer arrives), at a fraction of their
 * CPU. A JavaScript driver on a 2-core machine shares its core with PostgreSQL and Redis, and its own delays in
 * reading answers are counted as the service's latency; wrk's are not, or barely.
 *
 * The paths are taken in turn across all connections (each sent once before any repeats), from a file a Lua script
 * reads. wrk runs on the cores other than 0 (where the server is pinned) when taskset exists.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { canPin } from "./cores.js";

export const hasWrk = spawnSync("which", ["wrk"]).status === 0;

export interface WrkResult {
  driver: "wrk";
  requests_per_second: number;
  latency_ms: { p50: number; p90: number; p99: number; max: number };
  total: number;
  /** Answers with a status outside 2xx and 3xx, and connection, read, write and timeout errors. */
  non_2xx: number;
  errors: number;
}

const SCRIPT = `
local paths = {}
for line in io.lines(os.getenv("WRK_PATHS")) do paths[#paths + 1] = line end
local turn = 0
request = function()
  turn = turn % #paths + 1
  return wrk.format("GET", paths[turn])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"errors":%d,"non_2xx":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect + e.read + e.write + e.timeout, e.status))
end
`;

const ms = (microseconds: number) => Math.round(microseconds / 100) / 10;

/** A path as an HTTP client sends it (a space or a quote percent-encoded, as fetch does); wrk sends paths verbatim. */
function asSent(path: string): string {
  const url = new URL(path, "http://127.0.0.1");
  return url.pathname + url.search;
}

/** `connections` callers for `seconds` over `paths` (taken in turn) of `baseUrl`, with `headers` on every request. */
export function runWrk(
  baseUrl: string,
  headers: Record<string, string>,
  paths: readonly string[],
  options: { connections: number; seconds: number },
): WrkResult {
  const folder = mkdtempSync(join(tmpdir(), "bench-wrk-"));
  try {
    writeFileSync(join(folder, "paths.txt"), paths.map(asSent).join("\n") + "\n");
    writeFileSync(join(folder, "turns.lua"), SCRIPT);
    const otherCores = cpus().length > 1 && canPin ? ["taskset", "-c", `1-${cpus().length - 1}`] : [];
    const headerFlags = Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`]);
    const command = [
      ...otherCores,
      "wrk",
      "-t1",
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      "--timeout",
      "10s",
      ...headerFlags,
      "-s",
      join(folder, "turns.lua"),
      baseUrl,
    ];
    const run = spawnSync(command[0], command.slice(1), { encoding: "utf8", env: { ...process.env, WRK_PATHS: join(folder, "paths.txt") } });
    const line = run.stdout.split("\n").find((l) => l.startsWith("WRK_JSON "));
    if (run.status !== 0 || !line) throw new Error(`wrk failed (${run.status}): ${run.stderr || run.stdout}`);
    const r = JSON.parse(line.slice("WRK_JSON ".length)) as Record<string, number>;
    return {
      driver: "wrk",
      requests_per_second: Math.round(r.requests / (r.duration_us / 1e6)),
      latency_ms: { p50: ms(r.p50_us), p90: ms(r.p90_us), p99: ms(r.p99_us), max: ms(r.max_us) },
      total: r.requests,
      non_2xx: r.non_2xx,
      errors: r.errors,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
