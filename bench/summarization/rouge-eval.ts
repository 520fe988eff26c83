/**
 * ROUGE of the service's default summary against Lead-3 on an evaluation sample (sample.ts; prepare-sample.ts makes
 * one). The service is asked over HTTP exactly as a client would ask it, `POST /summarize {"text": article}` with no
 * other field, on the real platform (PostgreSQL, Redis, gateway auth). Lead-3 is the article's first three sentences
 * as the service's sentence splitter finds them.
 *   bash scripts/pnpm.sh exec tsx bench/summarization/rouge-eval.ts <sample.jsonl> [--split test|validation|all]
 *     [--out outputs.jsonl]
 * Scores are rouge-score's (./rouge.ts): F1 x 100, the best over an item's references when it has several. --out
 * writes every output with its references and scores, one JSON object a line, for rouge-crosscheck.py to score again
 * with Google's rouge-score itself.
 */
import { writeFileSync } from "node:fs";
import { buildService } from "@apiplat/service-kit";
import summarization from "@apiplat/summarization";
import { toolsFor } from "../../services/summarization/src/domain/languages.js";
import { analyze } from "../../services/summarization/src/domain/summarize.js";
import { startInstance } from "../lib/instance.js";
import { bootstrapInterval, meanScores, rouge, ROUGE_TYPES, rougeMulti, type RougeScores } from "./rouge.js";
import { option, positional, readSample } from "./sample.js";

// rouge-score's own example (its README): F1 0.7059 (ROUGE-1) and 0.5882 (ROUGE-L).
const example = rouge("The quick brown fox jumps over the lazy dog", "The quick brown dog jumps on the log.");
if (example.rouge1.toFixed(4) !== "0.7059" || example.rougeL.toFixed(4) !== "0.5882") {
  throw new Error(`ROUGE self-check failed: ${JSON.stringify(example)}`);
}

/** Lead-3 on the whole CNN/DailyMail test set (11,490 articles), See et al. (2017), Table 1. */
const PUBLISHED_LEAD3 = { rouge1: 40.34, rouge2: 17.7, rougeLsum: 36.57 };

const split = option("split", "test")!;
const sample = readSample(positional()[0], split);
const tools = toolsFor("en");

interface Output {
  id: string;
  system: string;
  prediction: string;
  references: string[];
  scores: RougeScores;
}

const outputs: Output[] = [];
const record = (id: string, system: string, sentences: string[], references: string[]) =>
  outputs.push({ id, system, prediction: sentences.join("\n"), references, scores: rougeMulti(references, sentences.join("\n")) });

const instance = await startInstance("summarization", (deps) => buildService(summarization, deps), {
  env: { RATE_LIMITS: "off", LOG_LEVEL: "warn" },
});
try {
  for (const { id, article, references } of sample.items) {
    const response = await fetch(`${instance.url}/summarize`, {
      method: "POST",
      headers: { ...instance.headers, "content-type": "application/json" },
      body: JSON.stringify({ text: article }),
    });
    if (response.status !== 200) throw new Error(`/summarize answered ${response.status} for ${id}: ${await response.text()}`);
    const { data } = (await response.json()) as { data: { sentences: { text: string }[] } };
    record(
      id,
      "service",
      data.sentences.map((s) => s.text),
      references,
    );
    record(
      id,
      "Lead-3",
      analyze(article, tools)
        .slice(0, 3)
        .map((s) => s.text),
      references,
    );
  }
} finally {
  await instance.close();
}

const out = option("out");
if (out) writeFileSync(out, outputs.map((o) => JSON.stringify(o)).join("\n") + "\n");

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const genres = [...new Set(sample.items.map((i) => i.genre))].join(", ");
const scoresOf = (system: string) => outputs.filter((o) => o.system === system).map((o) => o.scores);
const cells = (m: RougeScores) => ROUGE_TYPES.map((t) => m[t].toFixed(2)).join(" | ");
console.log(`${sample.items.length} items (${genres}, split ${split}) of ${sample.path}, sha256 ${sample.sha256}`);
console.log("F1 x 100, rouge-score conventions (Porter stemming; ROUGE-L over the whole summary, ROUGE-Lsum over sentences)\n");
console.log("| system | ROUGE-1 | ROUGE-2 | ROUGE-L | ROUGE-Lsum | sentences | words |");
console.log("|---|---|---|---|---|---|---|");
for (const system of ["service", "Lead-3"]) {
  const mine = outputs.filter((o) => o.system === system);
  const perItem = (count: (o: Output) => number) => (mine.reduce((sum, o) => sum + count(o), 0) / mine.length).toFixed(1);
  const length = `${perItem((o) => o.prediction.split("\n").length)} | ${perItem((o) => words(o.prediction))}`;
  console.log(`| ${system} | ${cells(meanScores(scoresOf(system)))} | ${length} |`);
}

const interval = ([low, high]: [number, number]) => `${low >= 0 ? "+" : ""}${low.toFixed(2)} to ${high >= 0 ? "+" : ""}${high.toFixed(2)}`;
const service = scoresOf("service");
const lead = scoresOf("Lead-3");
const difference = (i: number) => Object.fromEntries(ROUGE_TYPES.map((t) => [t, service[i]![t] - lead[i]![t]])) as unknown as RougeScores;
const differences = service.map((_, i) => difference(i));
const meanDifference = meanScores(differences);
const ci = bootstrapInterval(differences);
console.log(`\nservice - Lead-3 (paired, 95 % bootstrap interval of the mean difference):`);
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(2)}`;
console.log(ROUGE_TYPES.map((t) => `${t} ${signed(meanDifference[t])} (${interval(ci[t])})`).join(", "));

if (sample.items.every((i) => i.genre === "news")) {
  const leadCi = bootstrapInterval(lead);
  const m = meanScores(lead);
  console.log(`\nLead-3 against the published CNN/DailyMail test-set Lead-3 (See et al. 2017, ROUGE-1.5.5 with stemming):`);
  for (const t of ["rouge1", "rouge2", "rougeLsum"] as const) {
    const [low, high] = leadCi[t];
    console.log(
      `${t}: ${m[t].toFixed(2)} (95 % interval ${low.toFixed(2)}-${high.toFixed(2)}) against ${PUBLISHED_LEAD3[t].toFixed(2)}: ` +
        `${m[t] - PUBLISHED_LEAD3[t] >= 0 ? "+" : ""}${(m[t] - PUBLISHED_LEAD3[t]).toFixed(2)}`,
    );
  }
}
