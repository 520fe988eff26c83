/**
 * URL shortener benchmark: starts the service (src/main.ts) on real PostgreSQL and Redis, creates 10,000 links,
 * warms the cache, then measures with autocannon:
 *   1. redirect throughput and latency over the 10k links: at saturation (autocannon, closed loop), then at a constant
 *      BENCH_RATE redirects/s (default 10,000; bench/lib/open-loop.ts), the rate the latency target is stated at,
 *   2. RSS before and after BENCH_CLICKS redirects (default 1,000,000) and whether click recording kept up,
 *   3. link creation throughput (POST /shorten).
 * The service runs pinned to core 0 when taskset exists ("on one core"; BENCH_PIN=0 lets it float). With BENCH_ISOLATE=1
 * (needs root) PostgreSQL, Redis and this load generator are moved to core 1 for the run, so that nothing else shares the
 * service's core; their affinity is restored at the end.
 * Run: bash scripts/pnpm.sh exec tsx bench/url-shortener/redirects.ts
 * Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/url_shortener_bench, dropped and created anew),
 *      BENCH_REDIS_URL (default redis://127.0.0.1:6379/2), BENCH_PORT (3101), BENCH_DURATION (seconds, 20),
 *      BENCH_CONNECTIONS (64), BENCH_RATE (10000), BENCH_WARM_UP (seconds at BENCH_RATE before the measured run, 5), BENCH_CLICKS (1000000), BENCH_LINKS (10000), BENCH_ACCOUNTS (100),
 *      BENCH_NODE_ARGS (extra node flags for the service, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"),
 *      BENCH_PHASES (comma-separated subset of saturation,rate,clicks,creation; default all four).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { AccountStore } from "../../packages/gateway-auth/src/index.js";
import { createPostgresDatabase } from "../../packages/storage/src/index.js";
import { onCoreZero, withCoreZeroIsolated } from "../lib/cores.js";
import { runOpenLoop } from "../lib/open-loop.js";
import { cpuSeconds, programCpuSeconds } from "../lib/proc-cpu.js";

const serviceDir = fileURLToPath(new URL("../../services/url-shortener/", import.meta.url));
const require = createRequire(`${serviceDir}package.json`);
const autocannon = require("autocannon") as typeof import("autocannon");

const env = process.env;
const DATABASE_URL = env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/url_shortener_bench";
const REDIS_URL = env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379/2";
const PORT = Number(env.BENCH_PORT ?? 3101);
const DURATION = Number(env.BENCH_DURATION ?? 20);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 64);
const RATE = Number(env.BENCH_RATE ?? 10_000);
const WARM_UP_SECONDS = Number(env.BENCH_WARM_UP ?? 5);
const CLICKS = Number(env.BENCH_CLICKS ?? 1_000_000);
const LINKS = Number(env.BENCH_LINKS ?? 10_000);
/** MEGA allows 100 requests per second per account: enough accounts that the plan does not cap the creation figure. */
const ACCOUNTS = Number(env.BENCH_ACCOUNTS ?? 100);
const PHASES = new Set((env.BENCH_PHASES ?? "saturation,rate,clicks,creation").split(","));
const HOST = "url-shortener.api.local";
const ORIGIN = `http://127.0.0.1:${PORT}`;
const UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

/** A fresh database for every run: earlier runs' rows and dead tuples (this machine's PostgreSQL runs without
 *  autovacuum) would otherwise make each run slower than the last. */
async function recreateDatabase(): Promise<void> {
  const url = new URL(DATABASE_URL);
  const name = url.pathname.slice(1);
  url.pathname = "/postgres";
  const admin = createPostgresDatabase(url.toString(), { maxConnections: 1 });
  await admin.exec(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.exec(`CREATE DATABASE "${name}"`);
  await admin.close();
}

function startService(): ChildProcess {
  const extraNodeArgs = (env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const command = [process.execPath, ...extraNodeArgs, "--import", "tsx", "src/main.ts"];
  const pinned = env.BENCH_PIN === "0" ? command : onCoreZero(command);
  const child = spawn(pinned[0], pinned.slice(1), {
    cwd: serviceDir,
    env: {
      ...env,
      DATABASE_URL,
      REDIS_URL,
      URL_SHORTENER_PORT: String(PORT),
      SHORT_LINK_BASE_URL: `http://${HOST}:${PORT}`,
      BIND_ADDRESS: "127.0.0.1",
      LOG_LEVEL: "warn",
      LOG_REQUESTS: "false",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  return child;
}

async function waitForHealth(): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${ORIGIN}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the service did not become healthy");
}

/** One scrape of the service's /metrics; `value` reads a metric from it. */
async function scrapeMetrics(): Promise<(name: string) => number> {
  const text = await (await fetch(`${ORIGIN}/metrics`)).text();
  return (name) => {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, "m").exec(text);
    return match ? Number(match[1]) : NaN;
  };
}

async function rssMegabytes(): Promise<number> {
  return Math.round((await scrapeMetrics())("process_resident_memory_bytes") / 1e5) / 10;
}

/**
 * The service's event-loop delay since the last scrape, in ms. prom-client resets it on every scrape, so both
 * figures come from one.
 */
async function serviceLoopDelay(): Promise<{ p99: number; max: number }> {
  const value = await scrapeMetrics();
  const ms = (seconds: number) => Math.round(seconds * 1e4) / 10;
  return { p99: ms(value("nodejs_eventloop_lag_p99_seconds")), max: ms(value("nodejs_eventloop_lag_max_seconds")) };
}

async function createKeys(count: number): Promise<string[]> {
  const db = createPostgresDatabase(DATABASE_URL, { maxConnections: 2 });
  const accounts = new AccountStore(db);
  const keys: string[] = [];
  for (let i = 0; i < count; i++) {
    const account = await accounts.createAccount(`bench ${new Date().toISOString()} #${i}`);
    await accounts.subscribe(account.id, ["url-shortener"], "MEGA");
    keys.push((await accounts.createKey(account.id)).key);
  }
  await db.close();
  return keys;
}

function apiHeaders(key: string): Record<string, string> {
  return { "x-gateway-key": key, "x-gateway-host": HOST, "content-type": "application/json" };
}

async function createLinks(keys: string[]): Promise<string[]> {
  const codes: string[] = [];
  for (let batch = 0; codes.length < LINKS; batch++) {
    const size = Math.min(100, LINKS - codes.length);
    const urls = Array.from({ length: size }, (_, i) => `https://example.com/bench/${batch}/${i}?utm_source=bench`);
    const response = await fetch(`${ORIGIN}/bulk`, { method: "POST", headers: apiHeaders(keys[batch % keys.length]), body: JSON.stringify({ urls }) });
    const body = (await response.json()) as { data: { results: Array<{ link?: { code: string } }> } };
    if (!response.ok) throw new Error(`bulk failed: ${response.status} ${JSON.stringify(body)}`);
    for (const result of body.data.results) if (result.link) codes.push(result.link.code);
    // MEGA allows 100 requests per second per account; stay well under it.
    if (batch % keys.length === keys.length - 1) await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  return codes;
}

async function warm(codes: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < codes.length) {
      const code = codes[next++];
      await fetch(`${ORIGIN}/${code}`, { redirect: "manual", headers: { host: HOST, "user-agent": UA } });
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

function redirectRun(codes: string[], options: { duration?: number; amount?: number }) {
  let i = 0;
  return autocannon({
    url: ORIGIN,
    connections: CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration }),
    headers: { host: HOST, "user-agent": UA, referer: "https://news.example/item" },
    requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: `/${codes[i++ % codes.length]}` }) }],
  });
}

async function clicksStored(): Promise<number> {
  const db = createPostgresDatabase(DATABASE_URL, { maxConnections: 1 });
  const result = await db.query<{ n: number }>("SELECT count(*)::bigint AS n FROM shortener_clicks");
  await db.close();
  return result.rows[0].n;
}

function summary(result: Awaited<ReturnType<typeof autocannon>>) {
  return {
    requests_per_second_avg: Math.round(result.requests.average),
    latency_ms: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    total: result.requests.total,
    status_3xx: result["3xx"],
    non_3xx: result["1xx"] + result["2xx"] + result["4xx"] + result["5xx"],
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

type Summary = ReturnType<typeof summary>;

async function saturationPhase(pid: number, codes: string[]): Promise<Summary> {
  const cpuBefore = cpuSeconds(pid);
  const throughput = summary(await redirectRun(codes, { duration: DURATION }));
  const cpu = cpuSeconds(pid) - cpuBefore;
  console.log(
    "redirects (warm cache):",
    JSON.stringify({ ...throughput, service_cpu_seconds: cpu, redirects_per_cpu_second: Math.round(throughput.total / cpu) }),
  );
  return throughput;
}

async function ratePhase(pid: number, codes: string[]): Promise<number> {
  let next = 0;
  // One request object per code: the generator serializes each once.
  const requests = codes.map((code) => ({
    method: "GET" as const,
    path: `/${code}`,
    headers: { host: HOST, "user-agent": UA, referer: "https://news.example/item" },
  }));
  const atRate = (durationSeconds: number) =>
    runOpenLoop({ origin: ORIGIN, rate: RATE, durationSeconds, connections: CONNECTIONS, request: () => requests[next++ % requests.length] });
  // The first seconds at full rate after an idle spell are not steady (both processes' code is still being optimised,
  // their heaps are growing): a warm-up at the same rate, then the measured run.
  const warmUp = await atRate(WARM_UP_SECONDS);
  const cpuBefore = cpuSeconds(pid);
  const postgresBefore = programCpuSeconds("postgres");
  const generatorBefore = process.cpuUsage();
  await serviceLoopDelay();
  const started = Date.now();
  const steady = await atRate(DURATION);
  const seconds = (Date.now() - started) / 1000;
  const share = (cpu: number) => Number((cpu / seconds).toFixed(2));
  const generator = process.cpuUsage(generatorBefore);
  const cpuShareOfOneCore = {
    service: share(cpuSeconds(pid) - cpuBefore),
    postgres: share(programCpuSeconds("postgres") - postgresBefore),
    generator: share((generator.user + generator.system) / 1e6),
  };
  const serviceLoopDelayMs = await serviceLoopDelay();
  console.log(`redirects at a constant ${RATE}/s:`, JSON.stringify({ ...steady, serviceLoopDelayMs, cpu_share_of_one_core: cpuShareOfOneCore }));
  return (warmUp.statusCounts["302"] ?? 0) + (steady.statusCounts["302"] ?? 0);
}

async function clicksPhase(pid: number, codes: string[]): Promise<Summary> {
  const rssBefore = await rssMegabytes();
  const started = Date.now();
  const cpuBefore = cpuSeconds(pid);
  const million = summary(await redirectRun(codes, { amount: CLICKS }));
  const elapsed = (Date.now() - started) / 1000;
  const cpu = cpuSeconds(pid) - cpuBefore;
  const rssAfterRun = await rssMegabytes();
  console.log(
    `${CLICKS} redirects in ${elapsed.toFixed(1)} s:`,
    JSON.stringify({
      ...million,
      service_cpu_seconds: cpu,
      redirects_per_cpu_second: Math.round(CLICKS / cpu),
      rss_mb_before: rssBefore,
      rss_mb_right_after: rssAfterRun,
    }),
  );
  return million;
}

async function creationPhase(pid: number, keys: string[]): Promise<void> {
  let i = 0;
  const cpuBefore = cpuSeconds(pid);
  const creation = await autocannon({
    url: ORIGIN,
    connections: 16,
    duration: 10,
    requests: [
      {
        method: "POST",
        path: "/shorten",
        setupRequest: (request) => ({
          ...request,
          headers: apiHeaders(keys[i % keys.length]),
          body: JSON.stringify({ url: `https://example.com/created/${i++}` }),
        }),
      },
    ],
  });
  const cpu = cpuSeconds(pid) - cpuBefore;
  console.log(
    "creation (POST /shorten):",
    JSON.stringify({
      ...summary(creation),
      status_2xx: creation["2xx"],
      status_4xx: creation["4xx"],
      service_cpu_seconds: cpu,
      created_per_cpu_second: Math.round(creation["2xx"] / cpu),
    }),
  );
}

async function main(): Promise<void> {
  await withCoreZeroIsolated(env.BENCH_ISOLATE === "1", runPhases);
}

async function runPhases(): Promise<void> {
  await recreateDatabase();
  const service = startService();
  try {
    await waitForHealth();
    const keys = await createKeys(ACCOUNTS);
    const started = Date.now();
    const codes = await createLinks(keys);
    console.log(`created ${codes.length} links via /bulk in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await warm(codes);
    // Let the warm-up clicks reach PostgreSQL so that they are not counted below.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const clicksAtStart = await clicksStored();
    const pid = service.pid!;
    let served = 0;
    if (PHASES.has("saturation")) served += (await saturationPhase(pid, codes)).status_3xx;
    if (PHASES.has("rate")) served += await ratePhase(pid, codes);
    if (PHASES.has("clicks")) served += (await clicksPhase(pid, codes)).status_3xx;
    if (PHASES.has("creation")) await creationPhase(pid, keys);

    // The service writes clicks in the background; give it a moment, then stop it (SIGTERM flushes the rest).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const rssSettled = await rssMegabytes();
    service.kill("SIGTERM");
    await new Promise((resolve) => service.once("exit", resolve));
    const stored = (await clicksStored()) - clicksAtStart;
    console.log(JSON.stringify({ rss_mb_settled: rssSettled, clicks_served: served, clicks_stored: stored }));
  } finally {
    if (service.exitCode === null) service.kill("SIGTERM");
  }
}

await main();
