/**
 * How the summary's length and position prior were chosen: ROUGE of the summarizer, in process, on the development
 * split of one or more samples (sample.ts). Each of the plan's four constants is swept in turn while the other three
 * keep the values the service ships (summaryPlan): the position prior's weight on news-like text and on other text,
 * the word budget of a news summary, and the length constant c of other summaries (round(c x sentences /
 * sqrt(words)) sentences, within 2..5). Rows marked * are the shipped plan; Lead-3 is given for reference.
 *   bash scripts/pnpm.sh exec tsx bench/summarization/tune.ts <sample.jsonl>... [--split validation]
 *     [--news 0.7,0.8,0.9] [--general 0,0.3,0.5] [--budget 0,50,60,70] [--c 2.5,3,3.5]
 * Only ever run it on a development split: the test split is for rouge-eval.ts, once the choice is made.
 */
import { toolsFor } from "../../services/summarization/src/domain/languages.js";
import { looksLikeNews } from "../../services/summarization/src/domain/news.js";
import {
  analyze,
  GENERAL_POSITION_WEIGHT,
  NEWS_POSITION_WEIGHT,
  NEWS_SENTENCES,
  NEWS_WORD_BUDGET,
  selectSentences,
  summaryPlan,
  WORDS_PER_SQRT_WORD,
} from "../../services/summarization/src/domain/summarize.js";
import { meanScores, rougeMulti, type RougeScores } from "./rouge.js";
import { option, positional, readSample } from "./sample.js";

const split = option("split", "validation")!;
if (split === "test" || split === "all") throw new Error("tune.ts runs on a development split only");
const list = (name: string, fallback: number[]) => option(name)?.split(",").map(Number) ?? fallback;

interface Plan {
  news: number;
  general: number;
  budget: number;
  c: number;
}
const SHIPPED: Plan = { news: NEWS_POSITION_WEIGHT, general: GENERAL_POSITION_WEIGHT, budget: NEWS_WORD_BUDGET, c: WORDS_PER_SQRT_WORD };
const sweeps: [keyof Plan, number[]][] = [
  ["news", list("news", [0.5, 0.7, 0.8, 0.9])],
  ["general", list("general", [0, 0.3, 0.5])],
  ["budget", list("budget", [0, 50, 60, 70])],
  ["c", list("c", [2.5, 3, 3.5])],
];

const tools = toolsFor("en");
const samples = positional().map((path) => {
  const sample = readSample(path, split);
  const items = sample.items.map((item) => {
    const sentences = analyze(item.article, tools);
    const words = sentences.reduce((sum, s) => sum + s.words, 0);
    return {
      ...item,
      sentences,
      words,
      news: looksLikeNews(
        sentences.map((s) => s.text),
        "en",
      ),
    };
  });
  const news = items.filter((i) => i.news).length;
  console.log(`${sample.path} (sha256 ${sample.sha256.slice(0, 12)}): ${items.length} items of split ${split}, ${news} news-like`);
  return { name: items[0]?.genre ?? path, items };
});

const cells = (m: RougeScores) => [m.rouge1, m.rouge2, m.rougeL, m.rougeLsum].map((x) => x.toFixed(2)).join(" / ");
const header = samples.map((s) => `${s.name}: R1 / R2 / RL / RLsum`).join(" | ");
console.log(`\n| news weight | other weight | news budget | c | ${header} |\n|---|---|---|---|${samples.map(() => "---|").join("")}`);

const leadOf = (i: (typeof samples)[number]["items"][number]) =>
  i.sentences
    .slice(0, 3)
    .map((x) => x.text)
    .join("\n");
const lead3 = samples.map((s) => meanScores(s.items.map((i) => rougeMulti(i.references, leadOf(i)))));
console.log(`| Lead-3 | | | | ${lead3.map(cells).join(" | ")} |`);

function evaluate(plan: Plan): RougeScores[] {
  return samples.map((s) =>
    meanScores(
      s.items.map((i) => {
        const wanted = i.news ? NEWS_SENTENCES : Math.round((plan.c * i.sentences.length) / Math.sqrt(Math.max(i.words, 1)));
        const count = Math.min(i.sentences.length, Math.max(2, Math.min(5, wanted)));
        const budget = i.news && plan.budget > 0 ? { wordBudget: plan.budget, minCount: 2 } : {};
        const picked = selectSentences(i.sentences, tools, { count, positionWeight: i.news ? plan.news : plan.general, ...budget });
        return rougeMulti(i.references, picked.map((x) => x.text).join("\n"));
      }),
    ),
  );
}

for (const [name, values] of sweeps) {
  for (const value of values) {
    const plan = { ...SHIPPED, [name]: value };
    const shipped = value === SHIPPED[name] ? " *" : "";
    const scores = evaluate(plan).map(cells).join(" | ");
    console.log(`| ${plan.news} | ${plan.general} | ${plan.budget || "none"} | ${plan.c}${shipped} | ${scores} |`);
  }
}

// The shipped plan itself, through summaryPlan, must give the row marked *.
const shipped = samples.map((s) =>
  meanScores(
    s.items.map((i) => {
      const plan = summaryPlan(i.sentences, tools, { min: 2, max: 5 });
      return rougeMulti(
        i.references,
        selectSentences(i.sentences, tools, plan)
          .map((x) => x.text)
          .join("\n"),
      );
    }),
  ),
);
console.log(`| summaryPlan | | | | ${shipped.map(cells).join(" | ")} |`);
