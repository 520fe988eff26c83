import { describe, expect, it } from "vitest";
import { cosine, lexRank, selectMmr, similarityMatrix, tfidfVectors } from "../../src/domain/rank.js";
import { summaryLength } from "../../src/domain/summarize.js";

describe("ranking", () => {
  it("gives identical sentences cosine 1 and disjoint ones 0", () => {
    const [a, b, c] = tfidfVectors([
      ["librari", "budget"],
      ["librari", "budget"],
      ["road", "repair"],
    ]);
    expect(cosine(a!, b!)).toBeCloseTo(1, 10);
    expect(cosine(a!, c!)).toBe(0);
  });

  it("LexRank puts the hub of a star graph first and sums to 1", () => {
    // Sentence 0 shares a term with each of the others; they share nothing among themselves.
    const vectors = tfidfVectors([["a", "b", "c"], ["a"], ["b"], ["c"]]);
    const scores = lexRank(similarityMatrix(vectors), 4);
    expect(scores.reduce((x, y) => x + y, 0)).toBeCloseTo(1, 6);
    expect(Math.max(...scores)).toBe(scores[0]);
    expect(scores[1]).toBeCloseTo(scores[2]!, 6);
  });

  it("MMR skips a near-duplicate in favour of a new sentence", () => {
    const matrix = similarityMatrix(tfidfVectors([["x", "y"], ["x", "y"], ["z"]]));
    expect(selectMmr([1, 0.9, 0.5], matrix, { count: 2, lambda: 0.7, redundancy: 0.5 })).toEqual([0, 2]);
    // With nothing else left, the repeat is taken rather than a short summary.
    expect(selectMmr([1, 0.9, 0.5], matrix, { count: 3, lambda: 0.7, redundancy: 0.5 })).toEqual([0, 2, 1]);
  });

  it("sizes news at three sentences and other text at round(3 x sentences / sqrt(words)), within the bounds", () => {
    // 7 sentences of 170 words: 21 / 13.04 = 1.61 -> 2; 32 of 500: 96 / 22.36 = 4.29 -> 4; 30 of 100: 9 -> 5 (the most).
    const other = (sentences: number, words: number) => summaryLength({ sentences, words, news: false }, 2, 5);
    expect([other(7, 170), other(32, 500), other(30, 100), other(1, 10), other(3, 400)]).toEqual([2, 4, 5, 1, 2]);
    expect(summaryLength({ sentences: 40, words: 900, news: true }, 2, 5)).toBe(3);
    expect(summaryLength({ sentences: 40, words: 900, news: true }, 4, 6)).toBe(4);
    expect(summaryLength({ sentences: 40, words: 900, news: true }, 1, 2)).toBe(2);
  });
});
