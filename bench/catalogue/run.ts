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
 */
import type { ServiceIngestion } from "@apiplat/catalogue";
import { buildService, type ServiceManifest } from "@apiplat/service-kit";
import { benchPlatform, ingestForBench, serveForBench } from "../lib/catalogue-bench.js";
import { benchSwitches, startBenchServer } from "../lib/closed-loop.js";
import { withCoreZeroIsolated } from "../lib/cores.js";
import { cpuSeconds } from "../lib/proc-cpu.js";
import { runScenarios, type Scenario } from "../lib/scenarios.js";
import { hasWrk, runWrk } from "../lib/wrk.js";

/** A scenario as sent, then the same with `Cache-Control: no-cache`: every request asked of the database, not the answer cache. */
function andUncached(scenario: Scenario): Scenario[] {
  return [scenario, { ...scenario, name: `${scenario.name}, Cache-Control: no-cache`, headers: { "cache-control": "no-cache" } }];
}

/**
 * Searches nobody asked before: `count` distinct queries of two or three everyday words of the service's data
 * (seeded), each sent once across all callers (more than a run sends), with no-cache. Nothing about them can have
 * been kept from an earlier request: not the answer, not the query's compilation.
 */
function distinctSearches(words: string[], count: number, path = "/search"): Scenario {
  let seed = 20261125;
  const next = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const queries = new Set<string>();
  const word = () => words[Math.floor(next() * words.length)];
  while (queries.size < count) {
    const [a, b, c] = [word(), word(), word()];
    if (a === b || b === c || a === c) continue;
    const roll = next();
    queries.add(roll < 0.15 ? `${a} ${b} -${c}` : roll < 0.3 ? `${a} OR ${b} ${c}` : roll < 0.6 ? `${a} ${b} ${c}` : `${a} ${b}`);
  }
  return {
    name: `GET ${path}, ${queries.size} distinct queries (two words, OR, exclusions), Cache-Control: no-cache`,
    paths: [...queries].map((q) => `${path}?q=${encodeURIComponent(q)}`),
    headers: { "cache-control": "no-cache" },
    fresh: true,
  };
}

const NEWS_WORDS =
  "trump police world women photos new week apple google health vaccine court market school children election climate war china india fire water game film music star sport football cricket money bank oil tax city state president minister queen royal family love life death crime storm flood".split(
    " ",
  );
const VIDEO_WORDS =
  "music video official trailer live new best game minecraft christmas football highlights makeup tutorial comedy prank funny song dance cover reaction review vlog challenge news episode season full movie kids cat dog food recipe cooking".split(
    " ",
  );
const WEB_WORDS =
  "coffee espresso beer ale lager film actor director war love story family city water roast grinder brew milk chess game player history world music novel book king queen police crime".split(
    " ",
  );

const SCENARIOS: Record<string, Scenario[]> = {
  news: [
    ...andUncached({
      name: "GET /search, 10 queries in turn (relevancy)",
      paths: [
        "trump",
        "climate change",
        "covid vaccine",
        "stock market",
        "world cup",
        "election -trump",
        "cofee",
        "apple iphone",
        "police shooting",
        '"supreme court"',
      ].map((q) => `/search?q=${encodeURIComponent(q)}`),
    }),
    distinctSearches(NEWS_WORDS, 150_000),
    ...andUncached({ name: "GET /search?country=us&category=politics (listing, newest first)", paths: ["/search?country=us&category=politics"] }),
    {
      name: "GET /search?language=en&sort_by=popularity&facets=true (listing of every article, with facets), Cache-Control: no-cache",
      paths: ["/search?language=en&sort_by=popularity&facets=true"],
      headers: { "cache-control": "no-cache" },
    },
    ...andUncached({ name: "GET /top-headlines?country=us", paths: ["/top-headlines?country=us"] }),
    { name: "GET /trending?window=7d", paths: ["/trending?window=7d"] },
  ],
  "search-results": [
    ...andUncached({
      name: "GET /search, 10 queries in turn (relevance, any word)",
      paths: [
        "espresso crema",
        "store coffee beans",
        "buster keaton",
        "cofee grinder",
        "trappist beer",
        "chess grandmaster",
        "aging beer",
        "wizard of oz",
        '"moka pot"',
        "ale -lager",
      ].map((q) => `/search?q=${encodeURIComponent(q)}`),
    }),
    distinctSearches(WEB_WORDS, 30_000),
    {
      name: "GET /images, 5 queries in turn",
      paths: ["dog frisbee", "giraffe", "pizza", "man riding a wave", "train station"].map((q) => `/images?q=${encodeURIComponent(q)}`),
    },
    {
      name: "GET /news, 5 queries in turn",
      paths: ["climate", "ukraine", "apple iphone", "world cup", "stock market"].map((q) => `/news?q=${encodeURIComponent(q)}`),
    },
  ],
  "video-analytics": [
    ...andUncached({
      name: "GET /search, 10 queries in turn (relevance)",
      paths: [
        "music video",
        "official trailer",
        "minecraft",
        "christmas",
        "thanksgivng",
        "football highlights",
        "makeup tutorial",
        "live",
        "comedy -prank",
        '"saturday night live"',
      ].map((q) => `/search?q=${encodeURIComponent(q)}`),
    }),
    distinctSearches(VIDEO_WORDS, 100_000),
    { name: "GET /search?country=us&sort=views", paths: ["/search?country=us&sort=views"] },
    { name: "GET /trending?country=us", paths: ["/trending?country=us"] },
    { name: "GET /video/{id}", paths: ["/video/sXP6vliZIHI"] },
  ],
};

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

async function drive(name: string, seconds: number): Promise<void> {
  const server = await startBenchServer<{ ingestion: unknown[] }>(import.meta.filename, process.cwd(), ["--serve", name]);
  const { port, headers, ingestion } = server;
  const base = `http://127.0.0.1:${port}`;
  // A scenario of searches nobody asked before is warmed with its first only.
  for (const scenario of SCENARIOS[name])
    for (const path of scenario.fresh ? scenario.paths.slice(0, 1) : scenario.paths) {
      const response = await fetch(base + path, { headers });
      if (response.status !== 200) throw new Error(`warm-up ${path}: ${response.status} ${await response.text()}`);
    }
  const results = [];
  const { only } = benchSwitches;
  for (const scenario of SCENARIOS[name].filter((s) => !only || s.name.includes(only))) {
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
    const fromWrk = await withCoreZeroIsolated(benchSwitches.isolate, async () =>
      runWrk(base, { ...headers, ...scenario.headers }, scenario.fresh ? scenario.paths.slice(total) : scenario.paths, { connections: 20, seconds }),
    );
    results.push({ scenario: scenario.name, ...fromWrk, ...cpuPerRequest(cpuSeconds(server.pid) - wrkCpuBefore, fromWrk.total) });
  }
  server.stop();
  console.log(JSON.stringify({ service: name, database: "PostgreSQL 15", when: new Date().toISOString(), ingestion, results }, null, 2));
}

const args = process.argv.slice(2);
if (args[0] === "--serve") await serve(args[1]);
else {
  const [name, secondsArg] = args.filter((a) => !a.startsWith("--"));
  if (!SCENARIOS[name]) {
    console.error(`usage: tsx bench/catalogue/run.ts <${Object.keys(SCENARIOS).join("|")}> [seconds]`);
    process.exit(2);
  }
  await drive(name, Number(secondsArg ?? 10));
}
