/**
 * The client side: starts a bench server in two modes (bare and platform, or any two a server script knows), warms
 * them up, drives them in turn with autocannon for BENCH_ROUNDS rounds and reports throughput, latency and the CPU each
 * request cost the server process, Redis and PostgreSQL, per round and as medians. CPU per request is read from /proc,
 * so it holds even on a machine busy with other work, where req/s does not. BENCH_ISOLATE=1 moves PostgreSQL, Redis
 * and autocannon off the server's core.
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

/** What a bench server prints when listening: its port and pid, a key, or several keys to take turns with. */
export async function start(script: string, mode: string): Promise<{ child: ChildProcess; port: number; key: string; keys?: string[]; pid: number }> {
  // Pinned to core 0 when taskset exists, so that autocannon (here) and the server do not share a core.
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of each server (node refuses --cpu-prof in NODE_OPTIONS).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const command = [process.execPath, ...profile, "--import", "tsx", script, mode];
  const pinned = onCoreZero(command);
  const child = spawn(pinned[0], pinned.slice(1), { stdio: ["ignore", "pipe", "inherit"], detached: true });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once("line", resolve));
  return { child, ...JSON.parse(line) };
}

export type Server = Awaited<ReturnType<typeof start>>;

export function requestFor(options: CompareOptions, server: Server) {
  const headers = { "content-type": "application/json", "x-gateway-key": server.key, "x-gateway-host": options.host };
  // Several keys (a server that announces them): each request takes the next, so that no key reaches its plan's rate.
  const keys = server.keys;
  let next = 0;
  return {
    url: `http://127.0.0.1:${server.port}${options.path}`,
    method: options.method,
    headers,
    body: options.body,
    connections: options.connections,
    ...(keys && keys.length > 0
      ? {
          requests: [
            {
              setupRequest: (request: { headers?: Record<string, string> }) => ({
                ...request,
                headers: { ...request.headers, "x-gateway-key": keys[next++ % keys.length] },
              }),
            },
          ],
        }
      : {}),
  };
}

export async function measure(options: CompareOptions, server: Server, mode: string) {
  const before = { server: cpuSeconds(server.pid), redis: programCpuSeconds("redis-server"), postgres: programCpuSeconds("postgres") };
  const result = await autocannon({ ...requestFor(options, server), duration: options.seconds } as autocannon.Options);
  const after = { server: cpuSeconds(server.pid), redis: programCpuSeconds("redis-server"), postgres: programCpuSeconds("postgres") };
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
    postgres_cpu_us_per_request: Math.round(((after.postgres - before.postgres) * 1e6) / requests),
    /** What one core would serve if the server had it to itself. */
    requests_per_core_second: Math.round(1e6 / serverCpuUs),
  };
}

export type Measurement = Awaited<ReturnType<typeof measure>>;

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** What `other` costs over `base`: the share of throughput, and of requests per core-second, it loses. */
export function overhead(base: Measurement, other: Measurement) {
  return {
    throughput: Number((1 - other.requests_per_second / base.requests_per_second).toFixed(3)),
    cpu: Number((1 - other.requests_per_core_second / base.requests_per_core_second).toFixed(3)),
  };
}

const FIELDS = ["requests_per_second", "server_cpu_us_per_request", "redis_cpu_us_per_request", "postgres_cpu_us_per_request", "p50_ms", "p99_ms"] as const;

/** The median of each field over the rounds, for the server at `index`. */
export function mediansOf(rounds: Measurement[][], index: number) {
  return Object.fromEntries(FIELDS.map((field) => [field, median(rounds.map((round) => round[index][field]))]));
}

/** One server of a run: `mode` of `script`, reported as `label`. */
export interface ServerSpec {
  label: string;
  mode: string;
  script: string;
}

/**
 * Every server up for the whole run and warmed up, then driven in turn, one at a time, in short runs for BENCH_ROUNDS
 * rounds: a slow spell of the (shared, virtual) machine then falls on every side of a round rather than on one. Each
 * round's measurements, in the servers' order.
 */
export async function measureInTurn(
  options: CompareOptions,
  specs: ServerSpec[],
  onRound: (measured: Measurement[], round: number) => void,
): Promise<Measurement[][]> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
  return withCoreZeroIsolated(process.env.BENCH_ISOLATE === "1", async () => {
    const servers: Server[] = [];
    for (const spec of specs) servers.push(await start(spec.script, spec.mode));
    try {
      for (const server of servers) await autocannon({ ...requestFor(options, server), duration: 3 } as autocannon.Options);
      const all: Measurement[][] = [];
      for (let round = 1; round <= rounds; round++) {
        const measured: Measurement[] = [];
        for (let i = 0; i < specs.length; i++) measured.push(await measure(options, servers[i], specs[i].label));
        onRound(measured, round);
        all.push(measured);
      }
      return all;
    } finally {
      for (const server of servers) process.kill(-server.child.pid!, "SIGTERM");
    }
  });
}

/** The median overhead of the server at `to` over the one at `from`. */
export function overheadMedian(rounds: Measurement[][], from: number, to: number) {
  const pairs = rounds.map((round) => overhead(round[from], round[to]));
  return { throughput: Number(median(pairs.map((p) => p.throughput)).toFixed(3)), cpu: Number(median(pairs.map((p) => p.cpu)).toFixed(3)) };
}

/** What every report of a run opens with. */
export function runOf(options: CompareOptions, rounds: Measurement[][]) {
  return { path: options.path, seconds: options.seconds, connections: options.connections, rounds: rounds.length };
}

export async function comparePlatformToBare(options: CompareOptions): Promise<void> {
  await compareModes(options, ["bare", "platform"]);
}

/** The server script in two modes, driven in turn (see measureInTurn). The overhead is that of the second mode over the first. */
export async function compareModes(options: CompareOptions, modes: [string, string]): Promise<void> {
  const [baseMode, otherMode] = modes;
  const results = await measureInTurn(
    options,
    modes.map((mode) => ({ label: mode, mode, script: options.serverScript })),
    ([base, other], round) => {
      console.table([base, other]);
      console.log(JSON.stringify({ round, overhead: overhead(base, other) }));
    },
  );
  const { throughput, cpu } = overheadMedian(results, 0, 1);
  console.log(
    JSON.stringify({
      ...runOf(options, results),
      median: { [baseMode]: mediansOf(results, 0), [otherMode]: mediansOf(results, 1), overhead_throughput: throughput, overhead_cpu: cpu },
    }),
  );
}
