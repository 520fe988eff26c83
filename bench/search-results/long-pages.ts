/**
 * What one accepted web search costs the service when its results are long pages that match everywhere: the shape
 * a site's owner can plant for the crawler (a crawl keeps up to 2 MiB per page) and then search for. The datasets are
 * ingested, then BENCH_PAGES (default 100) pages of BENCH_PAGE_KIB (default 256) KiB each, made of 32 words no dataset
 * holds, through the crawl's own rows, upsert and index refresh. Each query is then sent BENCH_REPEAT (default 3)
 * times with `Cache-Control: no-cache`, num=100, the first time on pages no search has read yet, and timed with
 * process.cpuUsage (the service runs in this process; the database's CPU is not counted). BENCH_ONLY=<text> runs only
 * the shapes whose name contains it.
 *
 *   bash scripts/pnpm.sh exec tsx bench/search-results/long-pages.ts
 */
import { createOutboundClient } from "../../packages/outbound-guard/src/index.js";
import { buildService } from "@apiplat/service-kit";
import { benchPlatform, ingestForBench } from "../lib/catalogue-bench.js";
import { crawlSource, type CrawledPage } from "../../services/search-results/src/ingest/crawler.js";
import { datasetSources } from "../../services/search-results/src/ingest/datasets.js";
import service from "../../services/search-results/src/service.js";

const PAGES = Number(process.env.BENCH_PAGES ?? 100);
const PAGE_UNITS = Number(process.env.BENCH_PAGE_KIB ?? 256) * 1024;
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);

// 32 made-up words of four letters (no dataset holds them), starting with 8 different letters.
const SYLLABLES = ["ka", "lo", "mi", "nu", "pe", "ro", "su", "ti"];
const WORDS = SYLLABLES.flatMap((a) => SYLLABLES.slice(0, 4).map((b) => `${a}${b}x`)).slice(0, 32);

/** A page's text: the 32 words in a seeded order, `PAGE_UNITS` code units long. */
function pageText(seed: number): string {
  let state = seed;
  const parts: string[] = [];
  let length = 0;
  while (length < PAGE_UNITS) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const word = WORDS[state % WORDS.length];
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(" ");
}

function longPagesSource() {
  const source = crawlSource({
    seeds: [],
    outbound: createOutboundClient({}),
    userAgent: "bench",
    maxPages: PAGES,
    maxBytesPerPage: 2 * 1024 * 1024,
    delayMs: 0,
    sameHost: true,
  });
  return {
    ...source,
    name: "long-pages",
    async *read() {
      for (let i = 0; i < PAGES; i++) {
        const value: CrawledPage = {
          url: `https://long-pages.example/${i}`,
          title: `Long page ${i}`,
          text: pageText(i + 1),
          language: "en",
          lastModified: null,
          fetchedAt: new Date(),
        };
        yield { line: i + 1, value };
      }
    },
  };
}

const platform = await benchPlatform();
const app = await buildService(service, platform.deps, { settings: { autoLoad: false } });
await ingestForBench(service, platform, [...datasetSources(), longPagesSource()]);
const { headers } = await platform.subscribe("search-results", "MEGA");

async function measure(q: string) {
  const runs = [];
  for (let i = 0; i < REPEAT; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const res = await app.inject({ method: "GET", url: `/search?num=100&q=${encodeURIComponent(q)}`, headers: { ...headers, "cache-control": "no-cache" } });
    const used = process.cpuUsage(cpu);
    const body = res.json();
    runs.push({
      status: res.statusCode,
      results: body.data?.organic_results?.length ?? null,
      cpu_ms: Math.round((used.user + used.system) / 100) / 10,
      wall_ms: Math.round((performance.now() - started) * 10) / 10,
    });
  }
  return runs;
}

const results: Record<string, unknown> = {};
try {
  // The catalogue's first read, before anything is measured.
  await measure("coffee");
  for (const [shape, q] of Object.entries({
    "32 words of the long pages OR-ed": WORDS.join(" OR "),
    // The most OR'ed words the work bound accepts over these pages.
    "24 words of the long pages OR-ed": WORDS.slice(0, 24).join(" OR "),
    "22 words of the long pages OR-ed": WORDS.slice(0, 22).join(" OR "),
    "20 words of the long pages OR-ed": WORDS.slice(0, 20).join(" OR "),
    "32 words of the long pages": WORDS.join(" "),
    "30 words of the long pages": WORDS.slice(0, 30).join(" "),
    // The most required words the work bound accepts over these pages (positions of the matched pages times words).
    "12 words of the long pages": WORDS.slice(0, 12).join(" "),
    "8 words of the long pages": WORDS.slice(0, 8).join(" "),
    "one word of the long pages": WORDS[0],
  })) {
    if (process.env.BENCH_ONLY && !shape.includes(process.env.BENCH_ONLY)) continue;
    results[shape] = await measure(q);
    process.stderr.write(`${shape}: ${JSON.stringify(results[shape])}\n`);
  }
} finally {
  await app.close();
  await platform.close();
}
console.log(JSON.stringify({ when: new Date().toISOString(), pages: PAGES, page_kib: PAGE_UNITS / 1024, results }, null, 2));
