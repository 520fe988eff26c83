/**
 * Hostile searches against each catalogue service with a text query: prefix floods (one- and two-letter prefixes up
 * to the length `q` allows), many negated prefixes, long OR chains of frequent words, long phrases. Each query is sent
 * one at a time (no queueing), with `Cache-Control: no-cache`, and timed: its latency, and the server's own CPU time
 * over the request (from /proc, 10 ms ticks). What a subscriber can make one accepted search cost is the max.
 *
 *   bash scripts/pnpm.sh exec tsx bench/catalogue/adversarial.ts [service ...] [--repeat=N]
 *
 * Services: news, search-results, video-analytics, product-data, company-data (default: all). Each is started in a
 * child process on the real PostgreSQL with its full datasets (bench/catalogue/run.ts --serve, or the service's own
 * bench server), as the latency benchmarks run it.
 */
import path from "node:path";
import { startBenchServer, type BenchServer } from "../lib/closed-loop.js";
import { cpuSeconds } from "../lib/proc-cpu.js";

interface Target {
  /** The bench server script and its arguments. */
  server: [string, ...string[]];
  /** The searches: path with `{q}` where the query goes, and the longest q the endpoint takes. */
  endpoints: { path: string; maxLength: number }[];
}

const here = path.dirname(import.meta.filename);
const TARGETS: Record<string, Target> = {
  news: { server: [path.join(here, "run.ts"), "--serve", "news", "postgres"], endpoints: [{ path: "/search?limit=100&q={q}", maxLength: 500 }] },
  "search-results": {
    server: [path.join(here, "run.ts"), "--serve", "search-results", "postgres"],
    endpoints: [
      { path: "/search?num=100&q={q}", maxLength: 500 },
      { path: "/news?num=100&q={q}", maxLength: 500 },
      { path: "/images?num=100&q={q}", maxLength: 500 },
    ],
  },
  "video-analytics": {
    server: [path.join(here, "run.ts"), "--serve", "video-analytics", "postgres"],
    endpoints: [{ path: "/search?limit=100&q={q}", maxLength: 300 }],
  },
  "product-data": { server: [path.join(here, "../product-data/server.ts")], endpoints: [{ path: "/search?limit=100&q={q}", maxLength: 200 }] },
  "company-data": { server: [path.join(here, "../company-data/server.ts")], endpoints: [{ path: "/search?limit=100&name={q}", maxLength: 200 }] },
};

const WARM_UP = ["music", "world news", "coffee OR beer"];
const LETTERS = "etaoinshrdlcumwfgypbvkjxqz";
const PAIRS =
  "th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur".split(
    " ",
  );
const FREQUENT =
  "new world time year people first state life home family day city day love news video music game report police president market school water death power music health".split(
    " ",
  );

/** Words joined by spaces, as many as fit in `length` characters. */
function fill(words: string[], length: number): string {
  let text = "";
  for (let i = 0; ; i++) {
    const next = text ? `${text} ${words[i % words.length]}` : words[i % words.length];
    if (next.length > length) return text;
    text = next;
  }
}

/** The adversarial queries for an endpoint whose q takes at most `maxLength` characters. */
export function adversarialQueries(maxLength: number): Record<string, string> {
  const mixed = PAIRS.flatMap((pair, i) => [`${pair}*`, `${LETTERS[i % LETTERS.length]}*`]);
  const negated = (n: number) => ["the", ...Array.from({ length: n }, (_, i) => `-w${i}*`)].join(" ");
  return {
    "prefix flood, 1-2 letters, full length": fill(mixed, maxLength),
    "prefix flood, 1-2 letters, 250 characters": fill(mixed, Math.min(250, maxLength)),
    "ten one-letter prefixes": LETTERS.slice(0, 10)
      .split("")
      .map((l) => `${l}*`)
      .join(" "),
    "ten two-letter prefixes": PAIRS.slice(0, 10)
      .map((p) => `${p}*`)
      .join(" "),
    "ten three-letter prefixes": "the pro com con res pre str inter sta car"
      .split(" ")
      .map((p) => `${p.slice(0, 3)}*`)
      .join(" "),
    "31 negated prefixes": negated(31),
    "32 negated prefixes": negated(32),
    "negated frequent words": ["news", ...FREQUENT.slice(0, 20).map((w) => `-${w}`)].join(" ").slice(0, maxLength),
    "frequent words OR-ed, full length": fill(
      FREQUENT.flatMap((w) => [w, "OR"]),
      maxLength,
    ).replace(/ OR$/, ""),
    "frequent words, full length": fill(FREQUENT, maxLength),
    "long phrase of frequent words": `"${fill(FREQUENT, maxLength - 2)}"`,
    // At the bounds: the broadest queries a subscriber may still send.
    "32 frequent words OR-ed": FREQUENT.concat(FREQUENT)
      .slice(0, 32)
      .join(" OR ")
      .slice(0, maxLength)
      .replace(/ OR ?$/, ""),
    "32 frequent words": FREQUENT.concat(FREQUENT).slice(0, 32).join(" ").slice(0, maxLength).trim(),
    "five broad two-letter prefixes": "co* st* pr* re* ma*",
    "a frequent word and five broad two-letter prefixes excluded": "new -co* -st* -pr* -re* -ma*",
    "five excluded prefixes alone": "-co* -st* -pr* -re* -ma*",
  };
}

interface Measured {
  status: number;
  latency_ms: number;
  cpu_ms: number;
}

async function measure(server: BenchServer, url: string): Promise<Measured> {
  const cpuBefore = cpuSeconds(server.pid);
  const started = performance.now();
  const response = await fetch(url, { headers: { ...server.headers, "cache-control": "no-cache" }, signal: AbortSignal.timeout(120_000) });
  await response.arrayBuffer();
  const latency = performance.now() - started;
  return { status: response.status, latency_ms: Math.round(latency * 10) / 10, cpu_ms: Math.round((cpuSeconds(server.pid) - cpuBefore) * 1000) };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null;
};

async function benchService(name: string, repeat: number) {
  const target = TARGETS[name];
  const server = await startBenchServer<object>(target.server[0], process.cwd(), target.server.slice(1));
  const base = `http://127.0.0.1:${server.port}`;
  const queries = [];
  try {
    // The first search reads the catalogue into memory: done before anything is measured.
    for (const endpoint of target.endpoints) {
      for (const q of WARM_UP) await measure(server, base + endpoint.path.replace("{q}", encodeURIComponent(q)));
    }
    for (const endpoint of target.endpoints) {
      for (const [shape, q] of Object.entries(adversarialQueries(endpoint.maxLength))) {
        const url = base + endpoint.path.replace("{q}", encodeURIComponent(q));
        const runs: Measured[] = [];
        for (let i = 0; i < repeat; i++) runs.push(await measure(server, url));
        queries.push({
          endpoint: endpoint.path.replace("{q}", "…"),
          shape,
          q_length: q.length,
          statuses: [...new Set(runs.map((r) => r.status))],
          max_latency_ms: Math.max(...runs.map((r) => r.latency_ms)),
          max_cpu_ms: Math.max(...runs.map((r) => r.cpu_ms)),
          runs,
        });
        process.stderr.write(`${name} ${endpoint.path} ${shape}: ${runs.map((r) => `${r.status} ${r.latency_ms} ms (CPU ${r.cpu_ms} ms)`).join(", ")}\n`);
      }
    }
  } finally {
    server.stop();
  }
  const accepted = queries.flatMap((q) => q.runs.filter((r) => r.status === 200));
  return {
    service: name,
    accepted: accepted.length,
    refused_4xx: queries.flatMap((q) => q.runs).filter((r) => r.status >= 400 && r.status < 500).length,
    failed_5xx: queries.flatMap((q) => q.runs).filter((r) => r.status >= 500).length,
    accepted_max_cpu_ms: Math.max(0, ...accepted.map((r) => r.cpu_ms)),
    accepted_p99_cpu_ms: percentile(
      accepted.map((r) => r.cpu_ms),
      0.99,
    ),
    accepted_max_latency_ms: Math.max(0, ...accepted.map((r) => r.latency_ms)),
    accepted_p99_latency_ms: percentile(
      accepted.map((r) => r.latency_ms),
      0.99,
    ),
    queries: queries.map(({ runs, ...rest }) => rest),
  };
}

const args = process.argv.slice(2);
const repeat = Number(args.find((a) => a.startsWith("--repeat="))?.slice(9) ?? 3);
const names = args.filter((a) => !a.startsWith("--"));
for (const name of names) if (!TARGETS[name]) throw new Error(`unknown service ${name}: one of ${Object.keys(TARGETS).join(", ")}`);
const results = [];
for (const name of names.length ? names : Object.keys(TARGETS)) {
  const result = await benchService(name, repeat);
  const { queries: _queries, ...summary } = result;
  process.stderr.write(`${JSON.stringify(summary)}\n`);
  results.push(result);
}
console.log(JSON.stringify({ when: new Date().toISOString(), repeat, results }, null, 2));
