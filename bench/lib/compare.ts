/**
 * The client side: starts a bench server (bare, then platform, for BENCH_ROUNDS rounds), warms it up, drives it
 * with autocannon and reports throughput, latency and the CPU each request cost the server process and Redis,
 * per round and as medians. CPU per request is read from /proc, so it holds even on a machine busy with other
 * work, where req/s does not. BENCH_ISOLATE=1 moves PostgreSQL, Redis and autocannon off the server's core.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import autocannon from "autocannon";
import { onCoreZero, withCoreZeroIsolated } from "./cores.js";
import { cpuSeconds, programCpuSeconds } from "./proc-cpu.js";

export interface CompareOptions {
  /** The bench server script (a file calling serveForBenchmark). */
  serverScript: string;
  host: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
  seconds: number;
  connections: number;
}

async function start(script: string, mode: string): Promise<{ child: ChildProcess; port: number; key: string; pid: number }> {
  // Pinned to core 0 when taskset exists, so that autocannon (here) and the server do not share a core.
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server (node refuses --cpu-prof in NODE_OPTIONS).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const command = [process.execPath, ...profile, "--import", "tsx", script, mode];
  const pinned = onCoreZero(command);
  const child = spawn(pinned[0], pinned.slice(1), { stdio: ["ignore", "pipe", "inherit"], detached: true });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { child, ...JSON.parse(line) };
}

type Server = Awaited<ReturnType<typeof start>>;

function requestFor(options: CompareOptions, server: Server) {
  return {
    url: `http://127.0.0.1:${server.port}${options.path}`,
    method: options.method,
    headers: { "content-type": "application/json", "x-gateway-key": server.key, "x-gateway-host": options.host },
    body: options.body,
    connections: options.connections,
  };
}

async function measure(options: CompareOptions, server: Server, mode: "bare" | "platform") {
  const before = { server: cpuSeconds(server.pid), redis: programCpuSeconds("redis-server") };
  const result = await autocannon({ ...requestFor(options, server), duration: options.seconds });
  const after = { server: cpuSeconds(server.pid), redis: programCpuSeconds("redis-server") };
  const requests = result.requests.total;
  const serverCpuUs = ((after.server - before.server) * 1e6) / requests;
  return {
    mode,
    requests_per_second: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
    server_cpu_us_per_request: Math.round(serverCpuUs),
    redis_cpu_us_per_request: Math.round(((after.redis - before.redis) * 1e6) / requests),
    /** What one core would serve if the server had it to itself. */
    requests_per_core_second: Math.round(1e6 / serverCpuUs),
  };
}

type Measurement = Awaited<ReturnType<typeof measure>>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function overhead(bare: Measurement, platform: Measurement) {
  return {
    throughput: Number((1 - platform.requests_per_second / bare.requests_per_second).toFixed(3)),
    cpu: Number((1 - platform.requests_per_core_second / bare.requests_per_core_second).toFixed(3)),
  };
}

export async function comparePlatformToBare(options: CompareOptions): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
  const results = await withCoreZeroIsolated(process.env.BENCH_ISOLATE === "1", async () => {
    // Both servers stay up for the whole run and are driven in turn, one at a time, in short runs: a slow spell of
    // the (shared, virtual) machine then falls on both sides of a pair rather than on one.
    const bareServer = await start(options.serverScript, "bare");
    const platformServer = await start(options.serverScript, "platform");
    try {
      for (const server of [bareServer, platformServer]) await autocannon({ ...requestFor(options, server), duration: 3 });
      const pairs: Array<{ bare: Measurement; platform: Measurement }> = [];
      for (let round = 1; round <= rounds; round++) {
        const bare = await measure(options, bareServer, "bare");
        const platform = await measure(options, platformServer, "platform");
        console.table([bare, platform]);
        console.log(JSON.stringify({ round, overhead: overhead(bare, platform) }));
        pairs.push({ bare, platform });
      }
      return pairs;
    } finally {
      for (const server of [bareServer, platformServer]) process.kill(-server.child.pid!, "SIGTERM");
    }
  });
  const medianOf = (side: "bare" | "platform", field: "requests_per_second" | "server_cpu_us_per_request" | "p99_ms") =>
    median(results.map((pair) => pair[side][field]));
  console.log(
    JSON.stringify({
      path: options.path,
      seconds: options.seconds,
      connections: options.connections,
      rounds,
      median: {
        bare: { requests_per_second: medianOf("bare", "requests_per_second"), server_cpu_us_per_request: medianOf("bare", "server_cpu_us_per_request"), p99_ms: medianOf("bare", "p99_ms") },
        platform: { requests_per_second: medianOf("platform", "requests_per_second"), server_cpu_us_per_request: medianOf("platform", "server_cpu_us_per_request"), p99_ms: medianOf("platform", "p99_ms") },
        overhead_throughput: Number(median(results.map((pair) => overhead(pair.bare, pair.platform).throughput)).toFixed(3)),
        overhead_cpu: Number(median(results.map((pair) => overhead(pair.bare, pair.platform).cpu)).toFixed(3)),
      },
    }),
  );
}
