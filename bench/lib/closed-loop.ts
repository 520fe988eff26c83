/**
 * A benchmark server in a child process pinned to core 0, driven by callers in a closed loop (each sends its next
 * request when the previous answer arrives). The child prints one JSON line (at least `port` and `headers`) once
 * listening and stops on SIGTERM.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { onCoreZero, withCoreZeroIsolated } from "./cores.js";
import { cpuSeconds, descendantsOf, processTable } from "./proc-cpu.js";
import { hasWrk, runWrk, type WrkResult } from "./wrk.js";

export interface BenchServer {
  port: number;
  headers: Record<string, string>;
  pid: number;
  stop: () => void;
}

/**
 * Node flags for the server alone: with BENCH_PROFILE=<folder> it writes its CPU profile there when it stops (node
 * --cpu-prof); BENCH_SERVER_FLAGS adds flags of its own (space-separated, e.g. "--max-semi-space-size=64").
 */
export function serverNodeFlags(): string[] {
  const profiling = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  return [...profiling, ...(process.env.BENCH_SERVER_FLAGS ?? "").split(" ").filter(Boolean)];
}

export async function startBenchServer<Extra extends object>(script: string, cwd: string, args: string[] = []): Promise<BenchServer & Extra> {
  const command = onCoreZero([process.execPath, ...serverNodeFlags(), "--import", "tsx", script, ...args]);
  const child = spawn(command[0], command.slice(1), { cwd, env: process.env, stdio: ["ignore", "pipe", "inherit"] });
  // What the server prints after its JSON line (e.g. --trace-gc's lines) goes to this process's standard error; the
  // pipe is read to its end, so the server never blocks on a full one.
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    let listening = false;
    lines.on("line", (line) => {
      if (listening) return void process.stderr.write(`${line}\n`);
      if (!line.startsWith("{")) return;
      listening = true;
      resolve({ ...JSON.parse(line), pid: child.pid!, stop: () => child.kill("SIGTERM") });
    });
    lines.on("close", () => listening || reject(new Error("the benchmark server ended before listening")));
  });
}

export interface ClosedLoopRun {
  latencies: number[];
  errors: number;
  statuses: Record<number, number>;
  /** The service's CPU time over the run (user + system), in seconds. */
  cpu: number;
  /** Its child processes' (a helper process it started, if any). */
  childCpu: number;
  seconds: number;
}

function childrenCpuSeconds(pid: number): number {
  const table = processTable();
  return descendantsOf(table, pid).reduce((total, child) => total + table.get(child)!.ownCpuSeconds, 0);
}

function requireWrk(): true {
  if (!hasWrk) throw new Error("BENCH_DRIVER=wrk, but wrk is not installed: `bash scripts/bootstrap.sh bench` installs it");
  return true;
}

/** The benches' own switches, read once (see measureEndpoint). */
export const benchSwitches = {
  /** BENCH_ONLY=<text>: only the endpoints or scenarios whose name contains it. */
  only: process.env.BENCH_ONLY,
  /** BENCH_DRIVER=wrk: wrk alone (required: figures from another driver are not comparable). */
  wrkAlone: process.env.BENCH_DRIVER === "wrk" && requireWrk(),
  /** BENCH_ISOLATE=1 (root): PostgreSQL, Redis and the drivers off the service's core during the load. */
  isolate: process.env.BENCH_ISOLATE === "1",
};

/** Sent with every request of a run; `Cache-Control: no-cache` makes a catalogue service ask its database every time. */
export const NO_CACHE = { "cache-control": "no-cache" };

export async function driveClosedLoop(
  server: BenchServer,
  nextPath: () => string,
  seconds: number,
  callers: number,
  extraHeaders: Record<string, string> = {},
): Promise<ClosedLoopRun> {
  const headers = { ...server.headers, ...extraHeaders };
  const cpuBefore = cpuSeconds(server.pid);
  const childCpuBefore = childrenCpuSeconds(server.pid);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const caller = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${server.port}${nextPath()}`, { headers });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status >= 500) errors++;
    }
  };
  await Promise.all(Array.from({ length: callers }, caller));
  return { latencies, errors, statuses, cpu: cpuSeconds(server.pid) - cpuBefore, childCpu: childrenCpuSeconds(server.pid) - childCpuBefore, seconds };
}

/** The service's CPU per request, and its child processes' where they did any work. */
function serviceCpu({ cpu, childCpu }: { cpu: number; childCpu: number }, requests: number): string {
  const perRequest = (seconds: number) => (seconds * 1000) / Math.max(1, requests);
  const children = perRequest(childCpu) >= 0.01 ? ` (+ ${perRequest(childCpu).toFixed(2)} ms in its child processes)` : "";
  return `service CPU ${perRequest(cpu).toFixed(2)} ms per request${children}`;
}

export function reportClosedLoop(name: string, run: ClosedLoopRun): void {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  console.log(
    `${name}: ${sorted.length} requests, ${(sorted.length / run.seconds).toFixed(0)}/s, p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; ${serviceCpu(run, sorted.length)}; statuses ${JSON.stringify(run.statuses)}, 5xx ${run.errors}`,
  );
}

/** Paths drawn for a wrk run: more than it sends in a run, so that a seeded mix keeps its proportions. */
const WRK_PATHS = 200_000;

/** The same load from wrk (bench/lib/wrk.ts): `callers` connections over paths drawn from `nextPath`, with the service's CPU. */
export function driveWithWrk(server: BenchServer, nextPath: () => string, seconds: number, callers: number, extraHeaders: Record<string, string> = {}) {
  const paths = Array.from({ length: WRK_PATHS }, nextPath);
  const cpuBefore = cpuSeconds(server.pid);
  const childCpuBefore = childrenCpuSeconds(server.pid);
  const result = runWrk(`http://127.0.0.1:${server.port}`, { ...server.headers, ...extraHeaders }, paths, { connections: callers, seconds });
  return { ...result, cpu: cpuSeconds(server.pid) - cpuBefore, childCpu: childrenCpuSeconds(server.pid) - childCpuBefore };
}

export function reportWrk(name: string, run: WrkResult & { cpu: number; childCpu: number }): void {
  const { p50, p90, p99, max } = run.latency_ms;
  console.log(
    `${name} [wrk]: ${run.total} requests, ${run.requests_per_second}/s, p50 ${p50} ms, p90 ${p90} ms, p99 ${p99} ms, max ${max} ms; ${serviceCpu(run, run.total)}; non-2xx ${run.non_2xx}, errors ${run.errors}`,
  );
}

/**
 * One endpoint: a warm-up, the closed loop of this process's own callers, then (where wrk is installed) the same
 * load from wrk, which adds almost nothing of its own to the latencies. BENCH_ONLY=<text> measures only the endpoints
 * whose name contains it; BENCH_DRIVER=wrk skips the JavaScript driver; BENCH_ISOLATE=1 (root) keeps PostgreSQL, Redis and
 * the drivers off the service's core while they run (bench/lib/cores.ts).
 */
export async function measureEndpoint(
  server: BenchServer,
  name: string,
  nextPath: () => string,
  timing: { seconds: number; warmUp: number; callers: number },
  headers: Record<string, string> = {},
): Promise<void> {
  if (benchSwitches.only && !name.includes(benchSwitches.only)) return;
  await driveClosedLoop(server, nextPath, timing.warmUp, timing.callers, headers);
  await withCoreZeroIsolated(benchSwitches.isolate, async () => {
    if (!benchSwitches.wrkAlone) reportClosedLoop(name, await driveClosedLoop(server, nextPath, timing.seconds, timing.callers, headers));
    if (hasWrk) reportWrk(name, driveWithWrk(server, nextPath, timing.seconds, timing.callers, headers));
  });
}

/**
 * A latency bench's load, from its environment: BENCH_DURATION (seconds per endpoint, default 20), BENCH_CONCURRENCY
 * (callers, 20) and BENCH_WARM_UP (seconds, 3).
 */
export const closedLoopTiming = {
  seconds: Number(process.env.BENCH_DURATION ?? 20),
  callers: Number(process.env.BENCH_CONCURRENCY ?? 20),
  warmUp: Number(process.env.BENCH_WARM_UP ?? 3),
};
