/**
 * Ingestion speed and latency of the product-data service, on the real PostgreSQL or on the embedded PGlite:
 *
 *   bash scripts/pnpm.sh exec tsx bench/product-data/latency.ts                  (PostgreSQL 127.0.0.1:5432, db test + Redis)
 *   BENCH_EMBEDDED=1 bash scripts/pnpm.sh exec tsx bench/product-data/latency.ts (PGlite + in-process store)
 *
 * A child process, pinned to core 0 when taskset exists, builds the service on a fresh test platform (a schema of
 * its own on PostgreSQL, or an in-memory PGlite), ingests both files in full (rows per second, the derived review
 * aggregates, vocabulary and VACUUM ANALYZE included) and listens, with gateway auth and metering on and per-second
 * limits off. This process then drives it with 20 concurrent callers in a closed loop (each sends its next request
 * when the previous answer arrives): a fixed, seeded mix of /search requests, then /product and /reviews. CPU per
 * request is the service process's own (/proc/<pid>/stat), plus, on PGlite, its database process (a child, pinned to
 * the same core); PostgreSQL's work is not in it.
 * Env: BENCH_DURATION (seconds per endpoint, default 20), BENCH_CONCURRENCY (20), BENCH_WARM_UP (seconds, 3).
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import service, { ingestion } from "@apiplat/product-data";
import { buildService, serviceDatabase } from "@apiplat/service-kit";
import { createTestPlatform } from "@apiplat/testing";
import { onCoreZero } from "../lib/cores.js";
import { cpuSeconds, descendantsOf, processTable } from "../lib/proc-cpu.js";

const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3);
const embedded = process.env.BENCH_EMBEDDED === "1";

/** mulberry32: the same request mix on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seededRandom(17);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

const QUERIES = ["extension cord", "hole saw", "motorcycle helmet", "led light", "windshild", "tie down straps", "battery charger", "dog food", "coffee", "safety glasses", "\"hydration bladder\"", "gloves -work"];

function searchPath(): string {
  const kinds = [
    () => `q=${encodeURIComponent(pick(QUERIES))}`,
    () => `q=${encodeURIComponent(pick(QUERIES))}&facets=true`,
    () => `category=${pick(["industrial-scientific", "motorcycle-accessories-parts"])}&min_price=${pick([10, 25])}&max_price=${pick([50, 100])}&sort=${pick(["price_asc", "price_desc", "rating"])}`,
    () => `locale=${pick(["CA", "US"])}&min_rating=${pick([4, 4.5])}&sort=${pick(["rating", "reviews", "best_sellers"])}`,
    () => `is_best_seller=true&facets=true`,
    () => `facets=true&sort=best_sellers`,
  ];
  return `/search?${pick(kinds)()}&limit=${pick([10, 10, 20, 50])}`;
}

interface Server {
  port: number;
  headers: Record<string, string>;
  ingest: { source: string; rows: number; seconds: number; rows_per_second: number }[];
  asins: { ca: string[]; reviewed: string[] };
  pid: number;
  stop: () => void;
}

async function serve(): Promise<void> {
  const datasetsDir = loadConfig(process.env).datasetsDir;
  const platform = await createTestPlatform({ embedded, env: { RATE_LIMITS: "off", METERING_FLUSH_MS: "2000", LOG_LEVEL: "silent", DATASETS_DIR: datasetsDir } });
  const app = await buildService(service, platform.deps, { settings: { autoLoad: false } });
  const db = await serviceDatabase(service, platform.deps.db);
  const ingest = [];
  for (const source of ingestion.sources({ config: platform.deps.config, options: {} })) {
    const run = await runIngestion(db, source, { datasetsDir, now: () => new Date() });
    if (run.status !== "succeeded") throw new Error(`${source.name}: ${run.error}`);
    ingest.push({ source: source.name, rows: run.rows_read, seconds: (run.finished_at.getTime() - run.started_at.getTime()) / 1000, rows_per_second: run.rows_per_second });
  }
  const sample = async (sql: string) => (await db.query<{ asin: string }>(sql)).rows.map((r) => r.asin);
  const asins = {
    ca: await sample("SELECT asin FROM products WHERE locale = 'CA' ORDER BY md5(asin) LIMIT 200"),
    reviewed: await sample("SELECT asin FROM products WHERE review_count > 0 ORDER BY md5(asin) LIMIT 200"),
  };
  const { headers } = await platform.subscribe("product-data", "MEGA");
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as { port: number };
  console.log(JSON.stringify({ port, headers, ingest, asins }));
  process.once("SIGTERM", async () => {
    await app.close();
    await platform.close();
    process.exit(0);
  });
}

async function startServer(): Promise<Server> {
  const command = onCoreZero([process.execPath, "--import", "tsx", import.meta.filename, "--serve"]);
  const child = spawn(command[0], command.slice(1), { env: process.env, stdio: ["ignore", "pipe", "inherit"] });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (!line.startsWith("{")) continue;
    return { ...JSON.parse(line), pid: child.pid!, stop: () => child.kill("SIGTERM") };
  }
  throw new Error("the benchmark server ended before listening");
}

interface Run {
  latencies: number[];
  errors: number;
  statuses: Record<number, number>;
  /** The service process's CPU seconds over the run. */
  cpu: number;
  /** Its child processes' (PGlite's server, on the embedded store). */
  childCpu: number;
}

function childrenCpuSeconds(pid: number): number {
  const table = processTable();
  return descendantsOf(table, pid).reduce((total, child) => total + table.get(child)!.ownCpuSeconds, 0);
}

async function drive(server: Server, nextPath: () => string, seconds: number): Promise<Run> {
  const cpuBefore = cpuSeconds(server.pid);
  const childCpuBefore = childrenCpuSeconds(server.pid);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const caller = async () => {
    while (performance.now() < end) {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${server.port}${nextPath()}`, { headers: server.headers });
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status >= 400) errors++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, caller));
  return { latencies, errors, statuses, cpu: cpuSeconds(server.pid) - cpuBefore, childCpu: childrenCpuSeconds(server.pid) - childCpuBefore };
}

function report(name: string, run: Run): void {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  console.log(
    `${name}: ${sorted.length} requests, ${(sorted.length / DURATION).toFixed(0)}/s, p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; service CPU ${((run.cpu * 1000) / sorted.length).toFixed(2)} ms per request${embedded ? ` (+ ${((run.childCpu * 1000) / sorted.length).toFixed(2)} ms in PGlite's process)` : ""}; statuses ${JSON.stringify(run.statuses)}, 4xx/5xx ${run.errors}`,
  );
}

async function measure(): Promise<void> {
  const server = await startServer();
  try {
    const load = (await import("node:os")).loadavg()[0].toFixed(1);
    console.log(`store: ${embedded ? "PGlite (embedded)" : "PostgreSQL"}; ${CONCURRENCY} concurrent callers; ${DURATION} s per endpoint; load average ${load} at start; ${new Date().toISOString()}`);
    for (const run of server.ingest) console.log(`ingest ${run.source}: ${run.rows} rows in ${run.seconds.toFixed(1)} s (${run.rows_per_second} rows/s, derived tables included)`);
    const endpoints: [string, () => string][] = [
      ["/search", searchPath],
      ["/product/{asin}", () => `/product/${pick(random() < 0.5 ? server.asins.ca : server.asins.reviewed)}`],
      ["/reviews/{asin}", () => `/reviews/${pick(server.asins.reviewed)}?sort=${pick(["recent", "helpful", "rating"])}`],
    ];
    for (const [name, next] of endpoints) {
      await drive(server, next, WARM_UP);
      report(name, await drive(server, next, DURATION));
    }
  } finally {
    server.stop();
  }
}

if (process.argv.includes("--serve")) await serve();
else await measure();
