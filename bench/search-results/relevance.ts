/**
 * Ranking quality of GET /search over the judged queries of judged-queries.json: precision at 10 (relevant results
 * among the first ten, over ten) and MRR (1 / the position of the first relevant result, 0 when none of the first
 * 100 is), averaged over the queries.
 *
 *   bash scripts/pnpm.sh exec tsx bench/search-results/relevance.ts
 *       starts bench/search-results/server.ts (every dataset on a fresh test platform) and scores it; with
 *       BENCH_TITLE_BOOSTS=0,0.1,0.3 and BENCH_MATCHES=any,all it scores one app per variant over the same index (how
 *       the ranking was tuned).
 *   SEARCH_URL=http://127.0.0.1:3015 KEY=<gateway key> bash scripts/pnpm.sh exec tsx bench/search-results/relevance.ts
 *       scores a running service instead (npm start).
 * BENCH_VERBOSE=1 prints each query's scores.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

interface Judged {
  q: string;
  relevant: string[];
}

const root = fileURLToPath(new URL("../../", import.meta.url));
const { queries } = JSON.parse(readFileSync(new URL("./judged-queries.json", import.meta.url), "utf8")) as { queries: Judged[] };

interface QueryScore {
  q: string;
  precision_at_10: number;
  reciprocal_rank: number;
  best_possible_precision: number;
}

async function score(base: string, headers: Record<string, string>) {
  const perQuery: QueryScore[] = [];
  for (const judged of queries) {
    const response = await fetch(`${base}/search?q=${encodeURIComponent(judged.q)}&num=100`, { headers });
    if (response.status !== 200) throw new Error(`${judged.q}: ${response.status} ${await response.text()}`);
    const links = ((await response.json()) as { data: { organic_results: { link: string }[] } }).data.organic_results.map((r) => r.link);
    const relevant = new Set(judged.relevant);
    const precision = links.slice(0, 10).filter((l) => relevant.has(l)).length / 10;
    const first = links.findIndex((l) => relevant.has(l));
    perQuery.push({
      q: judged.q,
      precision_at_10: precision,
      reciprocal_rank: first < 0 ? 0 : 1 / (first + 1),
      best_possible_precision: Math.min(relevant.size, 10) / 10,
    });
  }
  const mean = (f: (r: QueryScore) => number) => Math.round((perQuery.reduce((s, r) => s + f(r), 0) / perQuery.length) * 1000) / 1000;
  return {
    queries: perQuery.length,
    precision_at_10: mean((r) => r.precision_at_10),
    best_possible_precision_at_10: mean((r) => r.best_possible_precision),
    mrr: mean((r) => r.reciprocal_rank),
    ...(process.env.BENCH_VERBOSE === "1" ? { per_query: perQuery } : {}),
  };
}

if (process.env.SEARCH_URL) {
  const headers = { "X-Gateway-Key": process.env.KEY ?? "", "X-Gateway-Host": "search-results.api.local" };
  console.log(JSON.stringify({ service: process.env.SEARCH_URL, ...(await score(process.env.SEARCH_URL, headers)) }, null, 2));
} else {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/search-results/server.ts"], {
    cwd: root,
    env: process.env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    let line = "";
    for await (const text of createInterface({ input: child.stdout! })) {
      if (text.startsWith("{")) {
        line = text;
        break;
      }
    }
    if (!line) throw new Error("the server ended before listening");
    const { servers, headers } = JSON.parse(line) as { servers: { title_boost: number; match: string; port: number }[]; headers: Record<string, string> };
    for (const server of servers)
      console.log(
        JSON.stringify({ title_boost: server.title_boost, match: server.match, ...(await score(`http://127.0.0.1:${server.port}`, headers)) }, null, 2),
      );
  } finally {
    child.kill("SIGTERM");
  }
}
