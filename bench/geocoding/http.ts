/**
 * Throughput and latency through the whole platform: autocannon (this process) against the service
 * (a child process: gateway auth, metering in PostgreSQL/Redis, validation, envelope).
 *   bash scripts/pnpm.sh exec tsx bench/geocoding/http.ts [seconds=10] [connections=20]
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const seconds = Number(process.argv[2] ?? 10);
const connections = Number(process.argv[3] ?? 20);

const server = spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL("./server.ts", import.meta.url))], {
  stdio: ["ignore", "pipe", "inherit"],
});
const [line] = (await once(createInterface({ input: server.stdout! }), "line")) as [string];
const { port, headers, build_ms } = JSON.parse(line) as { port: number; headers: Record<string, string>; build_ms: number };
console.log(`service ready on port ${port} (index built in ${build_ms} ms)`);

const searches = ["/search?q=Paris", "/search?q=lond", "/search?q=Berlin,%20Germany", "/search?q=san", "/search?q=M%C3%BCnchen&language=ja"];
const points = [
  "/reverse?lat=48.8566&lon=2.3522",
  "/reverse?lat=-33.87&lon=151.21",
  "/reverse?lat=0&lon=-30",
  "/reverse?lat=90&lon=0",
  "/reverse?lat=35.68&lon=139.69&language=ja",
];

async function run(name: string, paths: string[], duration = seconds): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    headers,
    requests: paths.map((path) => ({ method: "GET", path })),
  });
}

async function report(name: string, paths: string[]): Promise<void> {
  const result = await run(name, paths);
  console.log(
    `${name}: ${Math.round(result.requests.average)} req/s average over ${seconds}s with ${connections} connections; ` +
      `latency p50 ${result.latency.p50} ms, p90 ${result.latency.p90} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ` +
      `${result["2xx"]} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors`,
  );
}

try {
  // Untimed warm-up: the first seconds measure the JIT and the connection pools, not the service.
  await run("warm-up", [...searches, ...points], 3);
  // Each twice, interleaved, so that a burst of load from other processes does not hit only one of them.
  for (const round of [1, 2]) {
    await report(`search (round ${round})`, searches);
    await report(`reverse (round ${round})`, points);
  }
} finally {
  server.kill("SIGTERM");
  await once(server, "exit");
}
