/**
 * Summaries of 800-word news articles per second on one core, latency under 20 concurrent callers, and the time of
 * /summarize/long on 50,000 words. The service runs in a child process pinned to core 0 (taskset); its CPU time is
 * read from /proc, so "per CPU-second" holds whatever else the machine is doing.
 *   bash scripts/pnpm.sh exec tsx bench/summarization/http.ts [seconds=10]
 *   BENCH_ISOLATE=1 ... moves PostgreSQL, Redis and this process off core 0 for the run (root only).
 * Texts: the articles of a ROUGE sample (SUMMARIZATION_SAMPLE, see sample.ts), cut or joined at word boundaries.
 */
import { readSample } from "./sample.js";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { onCoreZero, withCoreZeroIsolated } from "../lib/cores.js";
import { cpuSeconds } from "../lib/proc-cpu.js";

const seconds = Number(process.argv[2] ?? 10);
const articles = readSample(process.env.SUMMARIZATION_SAMPLE, "all").items.map((row) => row.article);
const allWords = articles.join("\n\n").split(/ +/);

/** `count` words of the sample starting at word `from` (paragraph breaks between articles kept). */
const wordsFrom = (from: number, count: number) => allWords.slice(from, from + count).join(" ");
const eightHundred = Array.from({ length: 8 }, (_, i) => wordsFrom(i * 800, 800));
let long = "";
while (long.split(/\s+/).length < 50_000) long += `${articles.join("\n\n")}\n\n`;
const fiftyThousand = long.split(/ +/).slice(0, 50_000).join(" ");

const [command, ...args] = onCoreZero([process.execPath, ...process.execArgv, fileURLToPath(new URL("./server.ts", import.meta.url))]);
const server = spawn(command!, args, { stdio: ["ignore", "pipe", "inherit"] });
const [line] = (await once(createInterface({ input: server.stdout! }), "line")) as [string];
const { port, headers, pid } = JSON.parse(line) as { port: number; headers: Record<string, string>; pid: number };
const url = `http://127.0.0.1:${port}`;
const jsonHeaders = { ...headers, "content-type": "application/json" };

async function load(connections: number, duration: number) {
  const cpuBefore = cpuSeconds(pid);
  const result = await autocannon({
    url,
    connections,
    duration,
    headers: jsonHeaders,
    requests: eightHundred.map((text) => ({ method: "POST", path: "/summarize", body: JSON.stringify({ text }) })),
  });
  const cpu = cpuSeconds(pid) - cpuBefore;
  return { result, cpu };
}

async function report(name: string, connections: number): Promise<void> {
  const { result, cpu } = await load(connections, seconds);
  console.log(
    `${name}: ${Math.round(result.requests.average)} summaries/s wall, ${(result.requests.total / cpu).toFixed(0)} per CPU-second ` +
      `(server CPU ${cpu.toFixed(1)} s for ${result.requests.total}); latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `max ${result.latency.max} ms; ${result["2xx"]} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors`,
  );
}

async function longRuns(runs: number): Promise<void> {
  const times: number[] = [];
  const cpus: number[] = [];
  let chunks = 0;
  for (let i = 0; i < runs; i += 1) {
    const cpuBefore = cpuSeconds(pid);
    const started = performance.now();
    const response = await fetch(`${url}/summarize/long`, { method: "POST", headers: jsonHeaders, body: JSON.stringify({ text: fiftyThousand }) });
    const body = (await response.json()) as { data: { chunk_count: number; counts: { source_words: number } } };
    times.push(performance.now() - started);
    cpus.push(cpuSeconds(pid) - cpuBefore);
    if (response.status !== 200) throw new Error(`/summarize/long answered ${response.status}`);
    chunks = body.data.chunk_count;
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `/summarize/long, 50,000 words (${chunks} chunks), ${runs} runs: wall min ${sorted[0]!.toFixed(0)} ms, ` +
      `median ${sorted[Math.floor(runs / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms; ` +
      `server CPU per run ${cpus.map((c) => c.toFixed(2)).join(", ")} s`,
  );
}

try {
  await withCoreZeroIsolated(process.env.BENCH_ISOLATE === "1", async () => {
    await load(4, 3); // warm-up: JIT and connection pools
    for (const round of [1, 2]) {
      await report(`800-word articles, 4 connections (round ${round})`, 4);
      await report(`800-word articles, 20 concurrent callers (round ${round})`, 20);
    }
    await longRuns(7);
  });
} finally {
  server.kill("SIGTERM");
  await once(server, "exit");
}
