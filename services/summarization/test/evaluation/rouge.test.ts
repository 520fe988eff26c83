/**
 * The ROUGE of bench/summarization (the evaluation behind docs/performance/summarization.md) against Google's
 * rouge-score itself: every expected value below was computed by rouge-score (google-research rouge/, commit 61ce9f0,
 * RougeScorer(["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=True)) with NLTK 3.8's Porter stemmer, on
 * these short pairs written for the test, rounded to 12 decimals.
 */
import { describe, expect, it } from "vitest";
import { porterStem } from "../../../../bench/summarization/porter.js";
import { rouge, rougeMulti, type RougeScores } from "../../../../bench/summarization/rouge.js";

const PAIRS: { target: string; prediction: string; expected: RougeScores }[] = [
  {
    // rouge-score's README example.
    target: "The quick brown fox jumps over the lazy dog",
    prediction: "The quick brown dog jumps on the log.",
    expected: { rouge1: 0.705882352941, rouge2: 0.266666666667, rougeL: 0.588235294118, rougeLsum: 0.588235294118 },
  },
  {
    // Sentences in another order: ROUGE-L over the joined text loses what ROUGE-Lsum over sentences keeps.
    target: "The council approved the library budget on Tuesday.\nCritics wanted the money for roads.\nThe mayor signs it next week.",
    prediction: "Critics said the money should go to road repairs.\nThe city council approved a new library budget on Tuesday.",
    expected: { rouge1: 0.564102564103, rouge2: 0.27027027027, rougeL: 0.358974358974, rougeLsum: 0.564102564103 },
  },
  {
    // NLTK's departures from Porter (dying -> die, skies -> sky, flies -> fli, ties -> tie, generously -> gener).
    target: "Skies cleared as the dying storm moved east.\nHopefully the flies and ties stay dry.",
    prediction: "The dying storms moved east and the sky cleared.\nGenerously, geology students tied their conditional plans.",
    expected: { rouge1: 0.645161290323, rouge2: 0.344827586207, rougeL: 0.451612903226, rougeLsum: 0.516129032258 },
  },
  {
    // Punctuation separates tokens: U.S. is "u", "s"; 3.5 is "3", "5"; Monday's is "monday", "s".
    target: "U.S. shares rose 3.5% to $1,200 on Monday's news.",
    prediction: "US shares rose 3.5 percent, to 1,200 dollars, on Monday.",
    expected: { rouge1: 0.72, rouge2: 0.521739130435, rougeL: 0.72, rougeLsum: 0.72 },
  },
  {
    target: "The vote passed seven to two.",
    prediction: "",
    expected: { rouge1: 0, rouge2: 0, rougeL: 0, rougeLsum: 0 },
  },
];

const rounded = (scores: RougeScores) => Object.fromEntries(Object.entries(scores).map(([key, value]) => [key, Math.round(value * 1e12) / 1e12]));

describe("bench ROUGE against rouge-score", () => {
  it.each(PAIRS.map((pair, i) => [i, pair] as const))("scores pair %i as rouge-score does", (_, { target, prediction, expected }) => {
    expect(rounded(rouge(target, prediction))).toEqual(expected);
  });

  it("takes each measure's best reference, as score_multi does", () => {
    const references = ["Critics said the money should go to road repairs.", "The council approved the budget.\nRoads come next year."];
    const prediction = "The council approved the budget on Tuesday.\nCritics wanted roads.";
    expect(rounded(rougeMulti(references, prediction))).toEqual({
      rouge1: 0.631578947368,
      rouge2: 0.470588235294,
      rougeL: 0.631578947368,
      rougeLsum: 0.631578947368,
    });
  });

  it("stems as NLTK's PorterStemmer does", () => {
    const nltk: Record<string, string> = {
      dying: "die",
      skies: "sky",
      died: "die",
      dies: "die",
      flies: "fli",
      happy: "happi",
      enjoy: "enjoy",
      generously: "gener",
      geology: "geolog",
      hopefully: "hope",
      conditional: "condit",
      relational: "relat",
      agreed: "agre",
      feed: "feed",
      hopping: "hop",
      filing: "file",
      controlling: "control",
      news: "news",
      succeeding: "succeed",
      sensibility: "sensibl",
      triplicate: "triplic",
      formalize: "formal",
      electrical: "electr",
      revival: "reviv",
      adoption: "adopt",
    };
    expect(Object.fromEntries(Object.keys(nltk).map((word) => [word, porterStem(word)]))).toEqual(nltk);
  });
});
