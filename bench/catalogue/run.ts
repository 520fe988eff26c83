/**
 * Ingestion speed and search latency of a catalogue service (news, video-analytics, search-results), on the real PostgreSQL:
 *
 *   bash scripts/pnpm.sh exec tsx bench/catalogue/run.ts <service> [seconds per scenario, default 10]
 *
 * A child process, pinned to core 0 when taskset exists, builds the service on a fresh test platform (a schema of
 * its own on PostgreSQL), ingests every dataset of the service (timing each: rows per
 * second, the derived tables and vocabulary included) and listens. This process then drives it with autocannon
 * (20 connections) over each scenario, then, where wrk is installed, with wrk (20 connections, bench/lib/wrk.ts), and
 * prints one JSON document. Each text search is run twice: as sent (repeats
 * answered by the answer cache) and with `Cache-Control: no-cache` (every search asked of the database). With BENCH_ISOLATE=1 (root), PostgreSQL, Redis
 * and this process move off core 0 during the load. BENCH_ONLY=<text> runs only the scenarios whose name contains it;
 * BENCH_PROFILE=<folder> writes the service's CPU profile there (node --cpu-prof); BENCH_DRIVER=wrk drives with wrk alone.
 * `machine` records how fast core 0 was just before and after the scenarios (bench/lib/machine-probe.ts), and each wrk
 * result `core_zero`: the shares of core 0's time the hypervisor took (steal) and left idle during it.
 */
import type { ServiceIngestion } from "@apiplat/catalogue";
import { buildService, type ServiceManifest } from "@apiplat/service-kit";
import { benchPlatform, ingestForBench, serveForBench } from "../lib/catalogue-bench.js";
import { benchSwitches, startBenchServer } from "../lib/closed-loop.js";
import { withCoreZeroIsolated } from "../lib/cores.js";
import { coreZeroShares, coreZeroTicks, cpuSeconds, untilQuiet } from "../lib/proc-cpu.js";
import { runScenarios } from "../lib/scenarios.js";
import { machineProbe } from "../lib/machine-probe.js";
import { hasWrk, runWrk } from "../lib/wrk.js";
import type { Scenario } from "../lib/scenarios.js";

async function serve(name: string): Promise<void> {
  const module = (await import(`@apiplat/${name}`)) as { default: ServiceManifest<any, any>; ingestion: ServiceIngestion };
  const platform = await benchPlatform();
  const app = await buildService(module.default, platform.deps, { settings: { autoLoad: false } });
  const sources = module.ingestion.sources({ config: platform.deps.config, options: {} }).filter((s) => !s.live);
  const { ingest } = await ingestForBench(module.default, platform, sources);
  const { headers } = await platform.subscribe(module.default.name, "MEGA");
  await serveForBench(platform, [app], ([port]) => ({ port, headers, ingestion: ingest }));
}

/** One caller at a time: the latency of a request when nothing queues. */
async function sequentialLatency(base: string, headers: Record<string, string>, paths: string[], count: number) {
  const timings: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(base + paths[i % paths.length], { headers });
    await response.arrayBuffer();
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  const at = (p: number) => Math.round(timings[Math.min(timings.length - 1, Math.floor(p * timings.length))] * 10) / 10;
  return { requests: count, p50_ms: at(0.5), p99_ms: at(0.99) };
}

function cpuPerRequest(cpu: number, total: number) {
  return { server_cpu_ms_per_request: Math.round((cpu * 1000 * 100) / total) / 100, requests_per_server_cpu_second: Math.round(total / cpu) };
}

async function drive(name: string, scenarios: Scenario[], seconds: number): Promise<void> {
  const server = await startBenchServer<{ ingestion: unknown[] }>(import.meta.filename, process.cwd(), ["--serve", name]);
  const { port, headers, ingestion } = server;
  const base = `http://127.0.0.1:${port}`;
  // A scenario of searches nobody asked before is warmed with its first only.
  for (const scenario of scenarios)
    for (const path of scenario.fresh ? scenario.paths.slice(0, 1) : scenario.paths) {
      const response = await fetch(base + path, { headers });
      if (response.status !== 200) throw new Error(`warm-up ${path}: ${response.status} ${await response.text()}`);
    }
  // Searches from here on find the snapshot read, and its pages read ahead (search-results).
  const settled_ms = await untilQuiet(server.pid);
  const results = [];
  // Probed with PostgreSQL and Redis off core 0 too (under BENCH_ISOLATE), as the load is.
  const probeCoreZero = () => withCoreZeroIsolated(benchSwitches.isolate, async () => machineProbe());
  const machineBefore = await probeCoreZero();
  const { only } = benchSwitches;
  for (const scenario of scenarios.filter((s) => !only || s.name.includes(only))) {
    let total = 0;
    if (benchSwitches.wrkAlone) {
      // Without the JavaScript driver's run before it, wrk warms the service up itself (not reported).
      total = (
        await withCoreZeroIsolated(benchSwitches.isolate, async () =>
          runWrk(base, { ...headers, ...scenario.headers }, scenario.paths, { connections: 20, seconds: 3 }),
        )
      ).total;
    } else {
      // A fresh scenario's one-caller sample takes paths from its end, which the load does not reach.
      const sequential = await sequentialLatency(base, { ...headers, ...scenario.headers }, scenario.fresh ? scenario.paths.slice(-100) : scenario.paths, 100);
      const cpuBefore = cpuSeconds(server.pid);
      const [loaded] = await withCoreZeroIsolated(benchSwitches.isolate, () => runScenarios(base, headers, [scenario], { connections: 20, seconds }));
      const cpu = cpuSeconds(server.pid) - cpuBefore;
      total = loaded.total as number;
      // The server's own CPU per request: what one dedicated core would sustain, whatever else ran on the machine.
      results.push({ driver: "autocannon", ...loaded, one_caller: sequential, ...cpuPerRequest(cpu, total) });
    }
    if (!hasWrk) continue;
    // The same load from wrk; searches nobody asked before continue where autocannon's stopped.
    const wrkCpuBefore = cpuSeconds(server.pid);
    const coreBefore = coreZeroTicks();
    const fromWrk = await withCoreZeroIsolated(benchSwitches.isolate, async () =>
      runWrk(base, { ...headers, ...scenario.headers }, scenario.fresh ? scenario.paths.slice(total) : scenario.paths, { connections: 20, seconds }),
    );
    // A run whose core was partly taken by the hypervisor (steal) measured a slower machine, not slower code.
    const core_zero = coreZeroShares(coreBefore);
    results.push({ scenario: scenario.name, ...fromWrk, ...cpuPerRequest(cpuSeconds(server.pid) - wrkCpuBefore, fromWrk.total), core_zero });
  }
  const machineAfter = await probeCoreZero();
  server.stop();
  const machine = { before: machineBefore, after: machineAfter };
  console.log(JSON.stringify({ service: name, database: "PostgreSQL 15", when: new Date().toISOString(), machine, settled_ms, ingestion, results }, null, 2));
}

const args = process.argv.slice(2);
if (args[0] === "--serve") await serve(args[1]);
else {
  // Imported here, not at the top: the served process must not hold the scenarios' 280,000 distinct queries (some
  // 800,000 strings, 40 % of its heap's objects), which every major collection of the service marked.
  const { SCENARIOS } = await import("./scenarios.js");
  const [name, secondsArg] = args.filter((a) => !a.startsWith("--"));
  if (!SCENARIOS[name]) {
    console.error(`usage: tsx bench/catalogue/run.ts <${Object.keys(SCENARIOS).join("|")}> [seconds]`);
    process.exit(2);
  }
  await drive(name, SCENARIOS[name], Number(secondsArg ?? 10));
}
