/**
 * The client side: starts a bench server (bare, then platform), warms it up, drives it with autocannon and
 * reports throughput, latency and the CPU each request cost the server process and Redis. CPU per request
 * is read from /proc, so it holds even on a machine busy with other work, where req/s does not.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import autocannon from "autocannon";

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

const TICKS_PER_SECOND = 100;

function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function redisPid(): number | null {
  const found = spawnSync("pgrep", ["-o", "redis-server"], { encoding: "utf8" }).stdout.trim();
  return found ? Number(found) : null;
}

async function start(script: string, mode: string): Promise<{ child: ChildProcess; port: number; key: string; pid: number }> {
  // Pinned to core 0 when taskset exists, so that autocannon (here) and the server do not share a core.
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server (node refuses --cpu-prof in NODE_OPTIONS).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const command = [process.execPath, ...profile, "--import", "tsx", script, mode];
  const pinned = spawnSync("which", ["taskset"]).status === 0 ? ["taskset", "-c", "0", ...command] : command;
  const child = spawn(pinned[0], pinned.slice(1), { stdio: ["ignore", "pipe", "inherit"], detached: true });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { child, ...JSON.parse(line) };
}

export async function measure(options: CompareOptions, mode: "bare" | "platform") {
  const server = await start(options.serverScript, mode);
  const request = {
    url: `http://127.0.0.1:${server.port}${options.path}`,
    method: options.method,
    headers: { "content-type": "application/json", "x-gateway-key": server.key, "x-gateway-host": options.host },
    body: options.body,
    connections: options.connections,
  };
  await autocannon({ ...request, duration: 3 });
  const redis = redisPid();
  const before = { server: cpuSeconds(server.pid), redis: redis ? cpuSeconds(redis) : 0 };
  const result = await autocannon({ ...request, duration: options.seconds });
  const after = { server: cpuSeconds(server.pid), redis: redis ? cpuSeconds(redis) : 0 };
  process.kill(-server.child.pid!, "SIGTERM");
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

export async function comparePlatformToBare(options: CompareOptions): Promise<void> {
  const bare = await measure(options, "bare");
  const platform = await measure(options, "platform");
  console.table([bare, platform]);
  console.log(
    JSON.stringify({
      path: options.path,
      seconds: options.seconds,
      connections: options.connections,
      overhead_ratio_throughput: Number((1 - platform.requests_per_second / bare.requests_per_second).toFixed(3)),
      overhead_ratio_cpu: Number((1 - platform.requests_per_core_second / bare.requests_per_core_second).toFixed(3)),
      bare,
      platform,
    }),
  );
}
