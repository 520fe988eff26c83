/**
 * Throughput and latency of the public-holidays service through the whole platform stack (gateway auth,
 * metering, envelope) on real PostgreSQL and Redis, and the cost of computing a country-year on a miss.
 *
 *   bash scripts/pnpm.sh exec tsx bench/public-holidays/holidays.ts [seconds per scenario, default 10]
 *
 * The service listens on a real port in this process; autocannon runs in a worker thread. Per-second
 * plan limits are switched off (RATE_LIMITS=off) so the service, not the plan, is measured.
 */
import { runScenarios, type Scenario } from "../lib/scenarios.js";
import { startService } from "@apiplat/testing";
import publicHolidays from "@apiplat/public-holidays";
import { HolidayEngine } from "../../services/public-holidays/src/domain/engine.js";

const seconds = Number(process.argv[2] ?? 10);
const connections = 20;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function computeCost(): Promise<Record<string, unknown>> {
  const engine = new HolidayEngine();
  const timings: { code: string; ms: number }[] = [];
  for (const country of engine.listCountries()) {
    const started = performance.now();
    await engine.holidaysOfYear(country.code, 2031);
    timings.push({ code: country.code, ms: performance.now() - started });
  }
  const sorted = timings.map((timing) => timing.ms).sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    country_years: timings.length,
    total_ms: Math.round(sorted.reduce((sum, ms) => sum + ms, 0)),
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    slowest: timings
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map(({ code, ms }) => `${code} ${round(ms)} ms`),
  };
}

const harness = await startService(publicHolidays, {
  env: { RATE_LIMITS: "off", LOG_LEVEL: "silent", LOG_REQUESTS: "false" },
  settings: { warmUp: false },
  listen: true,
});
const { headers } = await harness.subscribe("MEGA");
const base = harness.url;

const mixedPaths = ["US", "DE", "JP", "BR", "FR", "GB", "IN", "ES", "CH", "AU"].flatMap((country) =>
  [2025, 2026].map((year) => `/holidays?country=${country}&year=${year}`),
);
for (const path of [...mixedPaths, "/next?country=US", "/is-holiday?country=DE&date=2026-12-25", "/countries"]) {
  const response = await fetch(base + path, { headers: headers });
  if (response.status !== 200) throw new Error(`warm-up ${path}: ${response.status}`);
}

const scenarios: Scenario[] = [
  { name: "GET /health (no auth, no metering: this machine's floor right now)", paths: ["/health"] },
  { name: "GET /holidays?country=DE&year=2026", paths: ["/holidays?country=DE&year=2026"] },
  { name: "GET /holidays, 10 countries x 2 years in turn", paths: mixedPaths },
  { name: "GET /next?country=US", paths: ["/next?country=US"] },
  { name: "GET /is-holiday?country=DE&date=2026-12-25", paths: ["/is-holiday?country=DE&date=2026-12-25"] },
  { name: "GET /countries", paths: ["/countries"] },
];

const results = await runScenarios(base, headers, scenarios, { connections, seconds });

/** Sequential in-process requests (no socket, no load generator): what one request costs the service. */
async function inProcess(path: string, count: number): Promise<Record<string, unknown>> {
  const timings: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await harness.app.inject({ method: "GET", url: path, headers: headers });
    timings.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
  }
  timings.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { path, requests: count, p50_ms: round(percentile(timings, 50)), p99_ms: round(percentile(timings, 99)) };
}

const injected = [await inProcess("/holidays?country=DE&year=2026", 2000), await inProcess("/next?country=US", 2000), await inProcess("/countries", 2000)];

console.log(JSON.stringify({ connections, seconds_per_scenario: seconds, http: results, in_process: injected, compute_on_miss: await computeCost() }, null, 2));
await harness.close();
