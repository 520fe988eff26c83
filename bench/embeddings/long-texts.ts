/**
 * Does reading texts past 128 tokens in windows help, and does it hurt? A retrieval task on Wikipedia film plots
 * (datasets/search-results/web/wiki_movie_plots_sample.csv) of 200 to 512 USE-lite tokens: each query is one
 * sentence of a plot, and the plot must be found among all the plots by cosine similarity.
 *   - tail queries: a sentence that lies wholly past the plot's 128th token (what truncation at 128 threw away);
 *   - head queries: a sentence wholly inside the first 128 tokens (what windows could dilute).
 * Each plot is embedded twice through a real listening instance: whole (now: 128-token windows, averaged) and cut
 * to its first 128 tokens (what the service embedded before: the same text up to the last word that fits).
 * Queries are short (under 128 tokens), so their vectors are the same either way.
 *   bash scripts/pnpm.sh exec tsx bench/embeddings/long-texts.ts [plots, default 300]
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { loadConfig } from "@apiplat/config";
import { buildService } from "@apiplat/service-kit";
import service from "../../services/embeddings/src/service.js";
import { UseTokenizer, type Piece } from "../../services/embeddings/src/domain/use-tokenizer.js";
import { cosine } from "../../services/embeddings/src/domain/vectors.js";
import { useLiteFolder } from "../../services/embeddings/src/inference/use-lite.js";
import { startInstance } from "../lib/instance.js";

const requireCsv = createRequire(new URL("../../packages/catalogue/package.json", import.meta.url));
const { parse } = requireCsv("csv-parse/sync") as { parse: (text: string, options: object) => Record<string, string>[] };

const wanted = Number(process.argv[2] ?? 300);
const WINDOW = 128;

interface Plot {
  text: string;
  head: string;
  prefix128: string;
  headQuery: string;
  tailQuery: string;
}

function sentences(text: string): string[] {
  return text.match(/[^.!?]+[.!?]+(\s|$)/g)?.map((s) => s.trim()) ?? [];
}

async function loadPlots(tokenizer: UseTokenizer): Promise<Plot[]> {
  const file = path.join(loadConfig(process.env).datasetsDir, "search-results/web/wiki_movie_plots_sample.csv");
  const rows = parse(await readFile(file, "utf8"), { columns: true });
  const count = (text: string) => tokenizer.encode(text).length;
  const plots: Plot[] = [];
  for (const row of rows) {
    const text = row.Plot.replace(/\[\d+\]/g, "")
      .replace(/\s+/g, " ")
      .trim();
    const total = count(text);
    if (total < 200 || total > 512) continue;
    const parts = sentences(text);
    // Where each sentence starts and ends in tokens (counted on the text up to it, as the tokenizer sees it).
    let before = "";
    const spans = parts.map((sentence) => {
      const start = count(before);
      before = before ? `${before} ${sentence}` : sentence;
      return { sentence, start, end: count(before) };
    });
    const fits = (s: { sentence: string }) => count(s.sentence) >= 8 && count(s.sentence) < WINDOW;
    const head = spans.find((s) => s.end <= WINDOW && fits(s));
    const tail = [...spans].reverse().find((s) => s.start >= WINDOW + 5 && fits(s));
    if (!head || !tail) continue;
    const words = text.split(" ");
    let prefix = "";
    for (const word of words) {
      const next = prefix ? `${prefix} ${word}` : word;
      if (count(next) > WINDOW) break;
      prefix = next;
    }
    plots.push({ text, head: text.slice(0, 60), prefix128: prefix, headQuery: head.sentence, tailQuery: tail.sentence });
    if (plots.length === wanted) break;
  }
  return plots;
}

function retrieval(queries: number[][], documents: number[][]): { top1: number; mrr: number } {
  let top1 = 0;
  let reciprocal = 0;
  queries.forEach((query, own) => {
    const scores = documents.map((document) => cosine(query, document));
    const rank = 1 + scores.filter((score, i) => i !== own && score > scores[own]).length;
    if (rank === 1) top1++;
    reciprocal += 1 / rank;
  });
  return { top1: top1 / queries.length, mrr: reciprocal / queries.length };
}

async function main(): Promise<void> {
  const vocabulary = JSON.parse(await readFile(path.join(useLiteFolder(), "vocab.json"), "utf8")) as Piece[];
  const plots = await loadPlots(new UseTokenizer(vocabulary));
  const instance = await startInstance("embeddings", (deps) => buildService(service, deps, { settings: { cacheBytes: 0 } }));
  const headers = { ...instance.headers, "content-type": "application/json" };
  const embed = async (texts: string[]): Promise<{ vectors: number[][]; tokens: number[] }> => {
    const vectors: number[][] = [];
    const tokens: number[] = [];
    for (let i = 0; i < texts.length; i += 50) {
      const response = await fetch(`${instance.url}/embed`, { method: "POST", headers, body: JSON.stringify({ input: texts.slice(i, i + 50) }) });
      const data = ((await response.json()) as { data: { embeddings: number[][]; tokens: number[] } }).data;
      vectors.push(...data.embeddings);
      tokens.push(...data.tokens);
    }
    return { vectors, tokens };
  };
  try {
    const whole = await embed(plots.map((p) => p.text));
    const cut = await embed(plots.map((p) => p.prefix128));
    const headQueries = await embed(plots.map((p) => p.headQuery));
    const tailQueries = await embed(plots.map((p) => p.tailQuery));
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    console.log(`${plots.length} plots of ${Math.min(...whole.tokens)} to ${Math.max(...whole.tokens)} tokens (mean ${mean(whole.tokens).toFixed(0)});`);
    console.log(
      `cut documents: ${Math.min(...cut.tokens)} to ${Math.max(...cut.tokens)} tokens; queries ${Math.min(...headQueries.tokens, ...tailQueries.tokens)} to ${Math.max(...headQueries.tokens, ...tailQueries.tokens)} tokens`,
    );
    console.log("| queries | documents | top-1 | MRR |");
    console.log("|---|---|---|---|");
    for (const [name, queries] of [
      ["tail (past token 128)", tailQueries.vectors],
      ["head (first 128 tokens)", headQueries.vectors],
    ] as const) {
      for (const [label, documents] of [
        ["cut at 128 tokens (before)", cut.vectors],
        ["whole, 128-token windows (now)", whole.vectors],
      ] as const) {
        const { top1, mrr } = retrieval(queries, documents);
        console.log(`| ${name} | ${label} | ${(top1 * 100).toFixed(1)} % | ${mrr.toFixed(3)} |`);
      }
    }
  } finally {
    await instance.close();
  }
}

await main();
