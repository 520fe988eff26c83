/**
 * How the weight of the position prior was chosen: ROUGE of the summarizer (in-process, 3 sentences) on the
 * CNN/DailyMail sample for several weights.
 *   bash scripts/pnpm.sh exec tsx bench/summarization/position-weight.ts [weights...=0 0.3 0.5 0.7 0.9]
 */
import { readSample } from "./sample.js";
import { toolsFor } from "../../services/summarization/src/domain/languages.js";
import { analyze, selectSentences } from "../../services/summarization/src/domain/summarize.js";
import { rouge, type RougeScores } from "./rouge.js";

const weights = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [0, 0.3, 0.5, 0.7, 0.9];
const articles = readSample();
const tools = toolsFor("en");
const analyzed = articles.map(({ article, highlights }) => ({ sentences: analyze(article, tools), reference: highlights.split("\n") }));
const mean = (scores: RougeScores[], key: keyof RougeScores) => ((100 * scores.reduce((sum, s) => sum + s[key], 0)) / scores.length).toFixed(2);

console.log("| position weight | ROUGE-1 | ROUGE-2 | ROUGE-L | ROUGE-Lsum |\n|---|---|---|---|---|");
for (const positionWeight of weights) {
  const scores = analyzed.map(({ sentences, reference }) =>
    rouge(selectSentences(sentences, tools, { count: 3, positionWeight }).map((s) => s.text), reference),
  );
  console.log(`| ${positionWeight} | ${mean(scores, "rouge1")} | ${mean(scores, "rouge2")} | ${mean(scores, "rougeL")} | ${mean(scores, "rougeLsum")} |`);
}
