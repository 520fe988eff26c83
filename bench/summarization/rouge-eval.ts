/**
 * ROUGE of the extractive summarizer against Lead-3 on the same articles: 100 CNN/DailyMail articles with their
 * highlights (SUMMARIZATION_SAMPLE, see sample.ts). The summarizer is asked over HTTP, as a client would, for
 * exactly 3 sentences (min_length = max_length = 3), so both systems pick three sentences.
 *   bash scripts/pnpm.sh exec tsx bench/summarization/rouge-eval.ts
 * Lead-3 is scored twice: the first three sentences as the service's segmenter splits the article, and the first
 * three of at least 5 words (CNN/DailyMail articles open with bylines such as "By . Associated Press ." that the
 * segmenter keeps as fragments; this is the stronger, fairer baseline).
 */
import { readSample } from "./sample.js";
import { buildService } from "@apiplat/service-kit";
import summarization from "@apiplat/summarization";
import { toolsFor } from "../../services/summarization/src/domain/languages.js";
import { analyze } from "../../services/summarization/src/domain/summarize.js";
import { startInstance } from "../lib/instance.js";
import { rouge, type RougeScores } from "./rouge.js";

const articles = readSample();

// Self-check: the example of rouge-score's README (google-research/rouge) scores F1 0.7059 (ROUGE-1) and 0.5882 (ROUGE-L).
const example = rouge(["The quick brown dog jumps on the log."], ["The quick brown fox jumps over the lazy dog"]);
if (example.rouge1.toFixed(4) !== "0.7059" || example.rougeL.toFixed(4) !== "0.5882") throw new Error(`ROUGE self-check failed: ${JSON.stringify(example)}`);

const instance = await startInstance("summarization", (deps) => buildService(summarization, deps));
const tools = toolsFor("en");
const systems: Record<string, RougeScores[]> = { "extractive (service)": [], "Lead-3": [], "Lead-3, fragments skipped": [] };
try {
  for (const { article, highlights } of articles) {
    const reference = highlights.split("\n").filter((line) => line.trim());
    const response = await fetch(`${instance.url}/summarize`, {
      method: "POST",
      headers: { ...instance.headers, "content-type": "application/json" },
      body: JSON.stringify({ text: article, language: "en", min_length: 3, max_length: 3 }),
    });
    if (response.status !== 200) throw new Error(`/summarize answered ${response.status}: ${await response.text()}`);
    const { data } = (await response.json()) as { data: { sentences: { text: string }[] } };
    systems["extractive (service)"]!.push(rouge(data.sentences.map((s) => s.text), reference));
    const sentences = analyze(article, tools);
    systems["Lead-3"]!.push(rouge(sentences.slice(0, 3).map((s) => s.text), reference));
    systems["Lead-3, fragments skipped"]!.push(rouge(sentences.filter((s) => s.words >= 5).slice(0, 3).map((s) => s.text), reference));
  }
} finally {
  await instance.close();
}

const mean = (scores: RougeScores[], key: keyof RougeScores) => ((100 * scores.reduce((sum, s) => sum + s[key], 0)) / scores.length).toFixed(2);
console.log(`${articles.length} CNN/DailyMail articles; F1 x 100 (rouge-score conventions, Porter stemmer)\n`);
console.log("| system | ROUGE-1 | ROUGE-2 | ROUGE-L | ROUGE-Lsum |");
console.log("|---|---|---|---|---|");
for (const [name, scores] of Object.entries(systems)) {
  console.log(`| ${name} | ${mean(scores, "rouge1")} | ${mean(scores, "rouge2")} | ${mean(scores, "rougeL")} | ${mean(scores, "rougeLsum")} |`);
}
