/**
 * Ingestion speed and /search latency of company-data at 20 concurrent callers (closed loop: each caller sends its
 * next request when the previous answer arrives), the service pinned to core 0 when taskset exists, on the whole
 * catalogue. Also /company/{id} and /domain/{domain}.
 *   bash scripts/pnpm.sh exec tsx bench/company-data/latency.ts            (PostgreSQL + Redis)
 *   BENCH_EMBEDDED=1 bash scripts/pnpm.sh exec tsx bench/company-data/latency.ts   (PGlite + in-process store)
 * Env: BENCH_DURATION (seconds per endpoint, default 20), BENCH_CONCURRENCY (20), BENCH_WARM_UP (seconds, 3).
 * Searches are a fixed mix (seeded): names with and without typos and legal suffixes, tickers, sectors with states
 * and employee floors, industries, and pages of a sector.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { onCoreZero } from "../lib/cores.js";
import { cpuSeconds } from "../lib/proc-cpu.js";

const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3);
const root = fileURLToPath(new URL("../../", import.meta.url));

/** A fixed pseudo-random sequence (mulberry32), so every run sends the same mix. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(7);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

const NAMES = ["apple", "Aple Inc", "microsoft corp", "jonson & jonson", "goldman sachs", "exxon", "walmart", "berkshire hathaway", "Tesla, Inc.", "intel", "pfizer", "general motors co", "boeing", "amazon", "alphabet", "coca cola", "procter gamble", "lockheed martin", "netflix", "oracle corporation"];
const SECTORS = ["Technology", "Financials", "Energy", "Retailing", "Health Care", "Industrials"];

function searchPath(): string {
  const kinds = [
    () => `name=${encodeURIComponent(pick(NAMES))}`,
    () => `name=${encodeURIComponent(pick(NAMES))}`,
    () => `ticker=${pick(["AAPL", "BRK.B", "MSFT", "JPM", "XOM", "MUR", "GOOGL"])}`,
    () => `sector=${encodeURIComponent(pick(SECTORS))}&state=${pick(["CA", "TX", "NY", "IL"])}&min_employees=${pick([1000, 10000, 50000])}`,
    () => `industry=${encodeURIComponent("information technology and services")}`,
    () => `sector=${encodeURIComponent(pick(SECTORS))}&limit=${pick([10, 50, 100])}`,
  ];
  return `/search?${pick(kinds)()}`;
}

const companyPath = () => `/company/${pick(["320193", "0000789019", "717423", "19617", "ty-ku", "tata-consultancy-services"])}`;
const domainPath = () => `/domain/${pick(["apple.com", "www.microsoft.com", "ey.com", "investor.apple.com", "exxonmobil.com"])}`;

interface Server {
  port: number;
  headers: Record<string, string>;
  ingest: { source: string; rows: number; seconds: number; rows_per_second: number }[];
  total: { rows: number; seconds: number; rows_per_second: number };
  pid: number;
  stop: () => void;
}

async function startServer(): Promise<Server> {
  const command = onCoreZero([process.execPath, "--import", "tsx", "bench/company-data/server.ts"]);
  const child = spawn(command[0], command.slice(1), { cwd: root, env: process.env, stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    if (!line.startsWith("{")) continue;
    return { ...JSON.parse(line), pid: child.pid!, stop: () => child.kill("SIGTERM") };
  }
  throw new Error("the benchmark server ended before listening");
}

interface Run {
  latencies: number[];
  errors: number;
  statuses: Record<number, number>;
  cpu: number;
}

async function drive(server: Server, nextPath: () => string, seconds: number): Promise<Run> {
  const cpuBefore = cpuSeconds(server.pid);
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
      if (res.status >= 500) errors++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, caller));
  return { latencies, errors, statuses, cpu: cpuSeconds(server.pid) - cpuBefore };
}

function report(name: string, run: Run): void {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  console.log(
    `${name}: ${sorted.length} requests, ${(sorted.length / DURATION).toFixed(0)}/s, p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, p99 ${at(0.99)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; service CPU ${((run.cpu * 1000) / sorted.length).toFixed(2)} ms per request; statuses ${JSON.stringify(run.statuses)}, 5xx ${run.errors}`,
  );
}

const server = await startServer();
try {
  console.log(`store: ${process.env.BENCH_EMBEDDED === "1" ? "PGlite (embedded)" : "PostgreSQL"}; ${CONCURRENCY} concurrent callers; ${DURATION} s per endpoint`);
  for (const run of server.ingest) console.log(`ingest ${run.source}: ${run.rows} rows in ${run.seconds.toFixed(1)} s (${run.rows_per_second} rows/s)`);
  console.log(`ingest, all sources and the profile merge: ${server.total.rows} rows in ${server.total.seconds.toFixed(1)} s (${server.total.rows_per_second} rows/s)`);
  for (const [name, next] of [["/search", searchPath], ["/company/{id}", companyPath], ["/domain/{domain}", domainPath]] as const) {
    await drive(server, next, WARM_UP);
    report(name, await drive(server, next, DURATION));
  }
} finally {
  server.stop();
}
