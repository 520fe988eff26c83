/**
 * Embeddings benchmark: for each TensorFlow.js backend, the service runs pinned to core 0 (one worker thread, cache
 * off so that every sentence is computed) and is measured for
 *   - sentences per second at batch 1, 32 and 100 (one request at a time, distinct sentences), and per CPU-second
 *     of the server (what one dedicated core sustains, whatever else the machine does);
 *   - p50/p99 latency of a one-sentence request under 20 concurrent callers (closed loop);
 *   - the server's peak RSS (VmHWM: main thread and workers).
 * Usage: bash scripts/pnpm.sh exec tsx bench/embeddings/throughput.ts [seconds per measure, default 10] [backends, default wasm,cpu]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { loadavg } from "node:os";
import { onCoreZero, withCoreZeroIsolated } from "../lib/cores.js";
import { cpuSeconds } from "../lib/proc-cpu.js";

const seconds = Number(process.argv[2] ?? 10);
const backends = (process.argv[3] ?? "wasm,cpu").split(",");
const TOPICS = [
  "the weather in the mountains",
  "a new phone that was released",
  "interest rates and mortgages",
  "how to bake sourdough bread",
  "the final of the football cup",
  "a bug in the billing system",
];
let counter = 0;
/** A distinct English sentence of about twelve words each time. */
const sentence = () => `Sentence ${counter++} is about ${TOPICS[counter % TOPICS.length]} and what people said of it yesterday.`;

interface Server {
  child: ChildProcess;
  url: string;
  headers: Record<string, string>;
  pid: number;
}

async function startServer(backend: string): Promise<Server> {
  const command = onCoreZero(["node", "--import", "tsx", "bench/embeddings/serve.ts"]);
  const child = spawn(command[0], command.slice(1), {
    env: { ...process.env, EMBEDDINGS_TFJS_BACKEND: backend, EMBEDDINGS_CACHE_MB: "0", EMBEDDINGS_WORKERS: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  const { port, key, pid } = JSON.parse(line);
  return {
    child,
    pid,
    url: `http://127.0.0.1:${port}`,
    headers: { "content-type": "application/json", "x-gateway-key": key, "x-gateway-host": "embeddings.api.local" },
  };
}

async function embed(server: Server, input: string[]): Promise<void> {
  const res = await fetch(`${server.url}/embed`, { method: "POST", headers: server.headers, body: JSON.stringify({ input }) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${body.slice(0, 200)}`);
}

async function throughput(server: Server, batch: number): Promise<{ perSecond: number; perCpuSecond: number }> {
  await embed(server, Array.from({ length: batch }, sentence));
  const cpu0 = cpuSeconds(server.pid);
  const start = performance.now();
  let sentences = 0;
  while (performance.now() - start < seconds * 1000) {
    await embed(server, Array.from({ length: batch }, sentence));
    sentences += batch;
  }
  const wall = (performance.now() - start) / 1000;
  return { perSecond: sentences / wall, perCpuSecond: sentences / (cpuSeconds(server.pid) - cpu0) };
}

async function latency(server: Server, callers: number): Promise<{ p50: number; p99: number; requests: number; perSecond: number }> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < end) {
        const t = performance.now();
        await embed(server, [sentence()]);
        times.push(performance.now() - t);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99), requests: times.length, perSecond: times.length / seconds };
}

function peakRssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmHWM:"))!;
  return Number(line.split(/\s+/)[1]) / 1024;
}

await withCoreZeroIsolated(process.env.BENCH_ISOLATE === "1", async () => {
  for (const backend of backends) {
    const server = await startServer(backend);
    try {
      console.log(`backend ${backend} (load average ${loadavg()[0].toFixed(1)})`);
      for (const batch of [1, 32, 100]) {
        const r = await throughput(server, batch);
        console.log(`  batch ${String(batch).padStart(3)}: ${r.perSecond.toFixed(1)} sentences/s, ${r.perCpuSecond.toFixed(1)} per server CPU-second`);
      }
      const l = await latency(server, 20);
      console.log(`  1 sentence x 20 callers: p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms (${l.requests} requests, ${l.perSecond.toFixed(1)}/s)`);
      console.log(`  peak RSS ${peakRssMb(server.pid).toFixed(0)} MB`);
    } finally {
      server.child.kill("SIGTERM");
      await new Promise((resolve) => server.child.once("exit", resolve));
    }
  }
});
