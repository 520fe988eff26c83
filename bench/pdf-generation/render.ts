/**
 * PDF renders per second and latency (p50/p99) for a one-page HTML invoice and a 20-page Markdown document, at
 * concurrency 1 and 4, against a real listening instance; peak memory (PSS of the service process + its Chromium processes).
 *   bash scripts/pnpm.sh exec tsx bench/pdf-generation/render.ts
 * BENCH_SECONDS (default 20) sets the length of each run; PDF_BROWSERS / PDF_PAGES_PER_BROWSER size the pool.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { descendantsOf, processTable } from "../lib/proc-cpu.js";
import { startInstance } from "./instance.js";

// autocannon is a devDependency of the service; the bench folder has no node_modules of its own.
const requireFromService = createRequire(new URL("../../services/pdf-generation/package.json", import.meta.url));
const autocannon = requireFromService("autocannon") as typeof import("autocannon");

const seconds = Number(process.env.BENCH_SECONDS ?? 20);

const INVOICE_HTML = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Invoice 2041</title><style>
body { font-family: 'Noto Sans', sans-serif; font-size: 10pt; color: #222; }
header { display: flex; justify-content: space-between; align-items: flex-start; margin-bottom: 24px; }
h1 { font-size: 20pt; margin: 0; } table { width: 100%; border-collapse: collapse; margin-top: 16px; }
th, td { padding: 6px 8px; border-bottom: 1px solid #ddd; text-align: left; } td.num, th.num { text-align: right; }
.total { text-align: right; font-size: 12pt; font-weight: bold; margin-top: 12px; }
</style></head><body>
<header><div><h1>Invoice 2041</h1><div>Issued 2026-11-22 · Due 2026-12-22</div></div>
<div style="text-align:right">Example Supplies Ltd<br>1 Sample Street<br>Exampletown</div></header>
<div>Bill to: Sample Customer GmbH, 2 Example Road, Sampleville</div>
<table><thead><tr><th>Item</th><th class="num">Qty</th><th class="num">Unit</th><th class="num">Amount</th></tr></thead><tbody>
${Array.from({ length: 12 }, (_, i) => `<tr><td>Line item ${i + 1}</td><td class="num">${i + 1}</td><td class="num">10.00</td><td class="num">${((i + 1) * 10).toFixed(2)}</td></tr>`).join("")}
</tbody></table><div class="total">Total: 780.00</div></body></html>`;

function twentyPageMarkdown(): string {
  const page = (n: number) =>
    [
      `## Chapter ${n}`,
      "",
      "Body text of the chapter, long enough to wrap over several lines so that the layout engine has real work to do. ".repeat(4),
      "",
      "| Metric | Value | Note |",
      "|---|---|---|",
      ...Array.from({ length: 6 }, (_, i) => `| metric ${i} | ${i * n} | sample row |`),
      "",
      "```typescript",
      `export function chapter${n}(input: number[]): number {`,
      "  return input.reduce((sum, value) => sum + value, 0);",
      "}",
      "```",
    ].join("\n");
  return ["# Benchmark document", "", ...Array.from({ length: 20 }, (_, i) => page(i + 1) + (i < 19 ? '\n\n<div class="page-break"></div>\n' : ""))].join("\n");
}

/**
 * CPU used during a run by this process (service and load generator) and by the Chromium tree. The machine is shared,
 * so wall-clock rates understate the service; CPU per render does not depend on what else runs. Chromium's processes
 * are sampled every 2 s, each counted from its first sighting (from 0 if it was started during the run) to its last:
 * a browser recycled mid-run has exited by the end, and its CPU would otherwise be lost (a process's last 2 s still
 * are).
 */
function trackCpu() {
  const baseline = new Map<number, number>();
  const lastSeen = new Map<number, number>();
  const nodeBefore = process.cpuUsage();
  let started = false;
  const sample = () => {
    const table = processTable();
    for (const pid of descendantsOf(table, process.pid)) {
      const seconds = table.get(pid)!.ownCpuSeconds;
      if (!baseline.has(pid)) baseline.set(pid, started ? 0 : seconds);
      lastSeen.set(pid, seconds);
    }
    started = true;
  };
  sample();
  const timer = setInterval(sample, 2000);
  return (): { node: number; chromium: number } => {
    clearInterval(timer);
    sample();
    const node = process.cpuUsage(nodeBefore);
    let chromium = 0;
    for (const [pid, seconds] of lastSeen) chromium += seconds - baseline.get(pid)!;
    return { node: (node.user + node.system) / 1e6, chromium };
  };
}

/**
 * Memory of this process and of every process it started (the Chromium tree), in MiB. PSS (proportional set size)
 * splits pages shared between Chromium's processes among them, so the sum is what the tree really holds; a sum
 * of RSS would count the shared libraries once per process. Reading smaps_rollup of Chromium takes the kernel
 * hundreds of milliseconds, so it is read asynchronously: the service in this process keeps serving meanwhile.
 */
async function treeMemoryMiB(): Promise<{ service: number; chromium: number }> {
  const table = processTable();
  const pssMiB = async (pid: number) => {
    try {
      const kb = /^Pss:\s+(\d+) kB/m.exec(await readFile(`/proc/${pid}/smaps_rollup`, "utf8"))?.[1];
      return Number(kb ?? 0) / 1024;
    } catch {
      return 0;
    }
  };
  const chromium = await Promise.all(descendantsOf(table, process.pid).map(pssMiB));
  return { service: await pssMiB(process.pid), chromium: chromium.reduce((a, b) => a + b, 0) };
}

/** Samples memory until stopped, one sample at a time; resolves to the peak. */
function samplePeak() {
  let running = true;
  let peak = { service: 0, chromium: 0, total: 0 };
  const done = (async () => {
    while (running) {
      const now = await treeMemoryMiB();
      if (now.service + now.chromium > peak.total) peak = { ...now, total: now.service + now.chromium };
      // Reading smaps_rollup costs the kernel real CPU time; every 2 s keeps the sampler from loading the machine.
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    return peak;
  })();
  return { stop: () => ((running = false), done) };
}

async function run(instance: Awaited<ReturnType<typeof startInstance>>, name: string, path: string, body: object, connections: number) {
  const sampler = samplePeak();
  const cpuUsed = trackCpu();
  const result = await autocannon({
    url: instance.url + path,
    method: "POST",
    headers: { ...instance.headers, "content-type": "application/json" },
    body: Buffer.from(JSON.stringify(body)),
    connections,
    duration: seconds,
    timeout: 60,
  });
  const cpu = cpuUsed();
  const peak = await sampler.stop();
  const perRender = (seconds: number) => (result.requests.total > 0 ? Math.round((seconds * 1000) / result.requests.total) : null);
  return {
    scenario: name,
    concurrency: connections,
    requests: result.requests.total,
    non_2xx: result.non2xx,
    errors: result.errors,
    renders_per_second: Number((result.requests.total / seconds).toFixed(2)),
    latency_ms: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    cpu_ms_per_render: {
      chromium: perRender(cpu.chromium),
      node_service_and_load_generator: perRender(cpu.node),
    },
    peak_pss_mib: { service: Math.round(peak.service), chromium: Math.round(peak.chromium), total: Math.round(peak.total) },
  };
}

const instance = await startInstance();
try {
  const markdown = twentyPageMarkdown();
  // Warm-up, and a check that the documents are what the bench claims.
  for (const [path, body, pages] of [
    ["/from-html", { html: INVOICE_HTML }, "1"],
    ["/from-markdown", { markdown }, "20"],
  ] as const) {
    const res = await fetch(instance.url + path, {
      method: "POST",
      headers: { ...instance.headers, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.headers.get("x-page-count") !== pages) throw new Error(`${path} rendered ${res.headers.get("x-page-count")} pages, expected ${pages}`);
  }
  const results = [];
  for (const connections of [1, 4]) results.push(await run(instance, "one-page HTML invoice", "/from-html", { html: INVOICE_HTML }, connections));
  for (const connections of [1, 4]) results.push(await run(instance, "20-page Markdown", "/from-markdown", { markdown }, connections));
  console.log(JSON.stringify({ seconds_per_run: seconds, results }, null, 2));
} finally {
  await instance.close();
}
