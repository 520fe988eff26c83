/**
 * What a catalogue held in memory costs the garbage collector: the heap a service keeps once its snapshot is read,
 * and how long a full mark-compact of it takes on one core (the stall that sets the uncached searches' p99).
 *
 *   taskset -c 0 node --expose-gc --import tsx bench/catalogue/heap.ts <service>
 *
 * Builds the service on the bench platform, ingests its datasets, answers one search (which reads the snapshot into
 * memory), then times ten full collections (`gc()`) and prints the median and the heap's size and object count.
 *
 * With `--reload`, it then records a new catalogue version (as a run of any replica does), sends the search again and
 * samples the heap every 2 ms while the snapshot is read again: the peak during the reload against the heap before
 * and after it, what a replica needs on top of its snapshot while it reloads.
 */
import { getHeapSnapshot, getHeapStatistics } from "node:v8";
import type { ServiceIngestion } from "@apiplat/catalogue";
import { buildService, type ServiceManifest } from "@apiplat/service-kit";
import { scopeToSchema } from "@apiplat/storage";
import { benchPlatform, ingestForBench } from "../lib/catalogue-bench.js";

const FIRST_SEARCH: Record<string, string> = {
  news: "/search?q=trump",
  "video-analytics": "/search?q=music",
  "search-results": "/search?q=coffee",
  "product-data": "/search?q=coffee",
  "company-data": "/search?name=apple",
  "real-estate": "/search?state=WA",
};

const [name] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const collect = (globalThis as { gc?: () => void }).gc;
if (!FIRST_SEARCH[name] || !collect) {
  console.error(`usage: node --expose-gc --import tsx bench/catalogue/heap.ts <${Object.keys(FIRST_SEARCH).join("|")}>`);
  process.exit(2);
}

/** Objects on the heap, counted from a heap snapshot's node list (its meta says how many fields a node has). */
async function objectCount(): Promise<number> {
  let text = "";
  for await (const chunk of getHeapSnapshot()) {
    text += chunk;
    const end = text.indexOf('"nodes":');
    if (end >= 0) break;
  }
  const head = text.slice(text.indexOf("{", text.indexOf('"snapshot":')), text.indexOf('"nodes":'));
  return (JSON.parse(head.trim().replace(/,$/, "")) as { node_count: number }).node_count;
}

const module = (await import(`@apiplat/${name}`)) as { default: ServiceManifest<any, any>; ingestion: ServiceIngestion };
const platform = await benchPlatform();
const app = await buildService(module.default, platform.deps, { settings: { autoLoad: false } });
await ingestForBench(
  module.default,
  platform,
  module.ingestion.sources({ config: platform.deps.config, options: {} }).filter((s) => !s.live),
);
const { headers } = await platform.subscribe(module.default.name, "MEGA");
const answer = await app.inject({ method: "GET", url: FIRST_SEARCH[name], headers });
if (answer.statusCode !== 200) throw new Error(`${FIRST_SEARCH[name]}: ${answer.statusCode} ${answer.body}`);

// Before the heap snapshot below, whose buffers stay on the heap for a while.
if (process.argv.includes("--reload")) await measureReload();

const pauses: number[] = [];
for (let i = 0; i < 10; i++) {
  const started = performance.now();
  collect();
  pauses.push(performance.now() - started);
}
pauses.sort((a, b) => a - b);
const heap = getHeapStatistics();
console.log(
  `${name}: heap ${(heap.used_heap_size / 1024 / 1024).toFixed(0)} MB used, ${(await objectCount()).toLocaleString("en")} objects; full collection median ${pauses[5].toFixed(1)} ms (min ${pauses[0].toFixed(1)}, max ${pauses[9].toFixed(1)})`,
);
await app.close();
await platform.close();
process.exit(0);

async function measureReload(): Promise<void> {
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  collect!();
  const before = process.memoryUsage();
  const db = await scopeToSchema(platform.deps.db, name);
  await db.query(
    "INSERT INTO ingest_runs (source, started_at, finished_at, status, runner, changed_catalogue) VALUES ('bench-reload', now(), now(), 'succeeded', 'bench', true)",
  );
  let peakHeap = 0;
  let peakRss = 0;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakRss = Math.max(peakRss, now.rss);
  }, 2);
  const started = performance.now();
  const again = await app.inject({ method: "GET", url: FIRST_SEARCH[name], headers: { ...headers, "cache-control": "no-cache" } });
  const reloadMs = performance.now() - started;
  clearInterval(sampler);
  if (again.statusCode !== 200) throw new Error(`${FIRST_SEARCH[name]} after the new version: ${again.statusCode}`);
  collect!();
  const after = process.memoryUsage();
  console.log(
    `${name} reload: ${reloadMs.toFixed(0)} ms; heap ${mb(before.heapUsed)} MB before, peak ${mb(peakHeap)} MB while reading the new snapshot, ${mb(after.heapUsed)} MB after; RSS ${mb(before.rss)} -> peak ${mb(peakRss)} -> ${mb(after.rss)} MB`,
  );
}
