/**
 * Throughput and latency of /latest and /convert through the whole platform stack (gateway auth, metering,
 * envelope, the one-hour Redis response cache) on real PostgreSQL and Redis, plus the cost of a cache miss.
 *
 *   bash scripts/pnpm.sh exec tsx bench/currency-exchange/rates.ts [seconds per scenario, default 10]
 *
 * The service listens on a real port in this process; autocannon runs in a worker thread. Per-second plan
 * limits are off (the test platform's default) so the service, not the plan, is measured.
 */
import { runScenarios, type Scenario } from "../lib/scenarios.js";
import { startSeededInstance } from "./instance.js";

const seconds = Number(process.argv[2] ?? 10);
const connections = 20;
const harness = await startSeededInstance();

const amounts = Array.from({ length: 50 }, (_, i) => `${(i + 1) * 37}.${String(i).padStart(2, "0")}`);
const scenarios: Scenario[] = [
  { name: "GET /latest (all ~155 currencies, base EUR)", paths: ["/latest"] },
  { name: "GET /latest?base=USD&symbols=EUR,JPY,GBP", paths: ["/latest?base=USD&symbols=EUR,JPY,GBP"] },
  { name: "GET /convert?from=USD&to=JPY&amount=100", paths: ["/convert?from=USD&to=JPY&amount=100"] },
  {
    name: "GET /convert, 50 amounts x 4 pairs in turn (200 cache keys)",
    paths: ["USD/JPY", "GBP/PLN", "AFN/BRL", "RUB/CHF"].flatMap((pair) => {
      const [from, to] = pair.split("/");
      return amounts.map((amount) => `/convert?from=${from}&to=${to}&amount=${amount}`);
    }),
  },
];

async function timeMiss(path: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(harness.base + path, { headers: harness.headers });
  if (response.status !== 200 || response.headers.get("x-cache") !== "MISS") throw new Error(`${path}: expected a 200 MISS`);
  return Math.round((performance.now() - started) * 10) / 10;
}

// Cache misses first (each path computed once), then the scenarios run mostly on cache hits.
const missMs = {
  "GET /latest (first request: book built from PostgreSQL)": await timeMiss("/latest"),
  "GET /latest?base=GBP (book in memory, answer computed)": await timeMiss("/latest?base=GBP"),
  "GET /historical/2026-03-18": await timeMiss("/historical/2026-03-18"),
  "GET /timeseries 2025-04-01..2026-03-31, symbols=USD,JPY": await timeMiss("/timeseries?start=2025-04-01&end=2026-03-31&symbols=USD,JPY"),
};

const results = await runScenarios(harness.base, harness.headers, scenarios, { connections, seconds });

console.log(JSON.stringify({ connections, seconds_per_scenario: seconds, cache_miss_ms: missMs, http: results }, null, 2));
await harness.close();
