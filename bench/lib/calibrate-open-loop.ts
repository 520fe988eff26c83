/**
 * The floor of the constant-rate redirect measurement on this machine: bench/lib/open-loop.ts against a bare
 * node:http server pinned to core 0 that answers every request with the same 302 the URL shortener sends. Any
 * latency a service benchmark reports at the same rate includes this; the server's CPU share is what plain Node
 * HTTP costs at that rate. BENCH_ISOLATE=1 moves the generator, PostgreSQL and Redis off core 0, as the service
 * benchmarks do.
 *   BENCH_ISOLATE=1 bash scripts/pnpm.sh exec tsx bench/lib/calibrate-open-loop.ts [rate] [seconds]
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { onCoreZero, withCoreZeroIsolated } from "./cores.js";
import { runOpenLoop, type OpenLoopRequest } from "./open-loop.js";
import { cpuSeconds } from "./proc-cpu.js";

const rate = Number(process.argv[2] ?? 10_000);
const seconds = Number(process.argv[3] ?? 10);
const PORT = 3990;

const redirect = `{"x-request-id":"5ee00cd4-6ea0-4f75-8d4e-000000000001","cache-control":"private, no-cache",location:"https://example.com/bench/0/0?utm_source=bench","content-length":"0"}`;
const server = `require("node:http").createServer((req, res) => { req.resume(); res.writeHead(302, ${redirect}).end(); }).listen(${PORT}, "127.0.0.1", () => console.log("up"));`;
const request: OpenLoopRequest = {
  method: "GET",
  path: "/AbCdEf1",
  headers: {
    "user-agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    referer: "https://news.example/item",
  },
};

await withCoreZeroIsolated(process.env.BENCH_ISOLATE === "1", async () => {
  const command = onCoreZero([process.execPath, "-e", server]);
  const child = spawn(command[0], command.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
  await once(child.stdout!, "data");
  try {
    const run = (durationSeconds: number) =>
      runOpenLoop({ origin: `http://127.0.0.1:${PORT}`, rate, durationSeconds, connections: 64, request: () => request });
    await run(2);
    const cpuBefore = cpuSeconds(child.pid!);
    const started = Date.now();
    const result = await run(seconds);
    const serverShare = (cpuSeconds(child.pid!) - cpuBefore) / ((Date.now() - started) / 1000);
    console.log(JSON.stringify({ rate, seconds, ...result, server_cpu_share_of_one_core: Number(serverShare.toFixed(2)) }));
  } finally {
    child.kill();
  }
});
