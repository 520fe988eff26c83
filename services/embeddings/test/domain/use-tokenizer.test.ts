import { describe, expect, it } from "vitest";
import { UseTokenizer, type Piece } from "../../src/domain/use-tokenizer.js";

describe("the USE-lite tokenizer", () => {
  // A toy vocabulary: six control symbols, then pieces with log probabilities.
  const vocabulary: Piece[] = [
    ["<unk>", 0],
    ["<s>", 0],
    ["</s>", 0],
    ["a", 0],
    ["b", 0],
    ["c", 0],
    ["▁the", -1],
    ["▁", -2],
    ["t", -3],
    ["h", -3],
    ["e", -3],
    ["▁th", -2.5],
    ["re", -2],
    ["r", -3],
  ];
  const tokenizer = new UseTokenizer(vocabulary);

  it("picks the most likely split (Viterbi) and marks word starts", () => {
    expect(tokenizer.encode("the")).toEqual([6]);
    expect(tokenizer.encode("the the")).toEqual([6, 6]);
    // ▁the + re scores -3, better than ▁the + r + e (-7), ▁th + e + re (-7.5) or ▁ + t + h + e + re (-13).
    expect(tokenizer.encode("there")).toEqual([6, 12]);
  });

  it("maps unknown characters to one unknown id, merging runs", () => {
    expect(tokenizer.encode("the zz")).toEqual([6, 7, 0]);
  });
});
