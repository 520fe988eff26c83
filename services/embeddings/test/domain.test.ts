import { describe, expect, it } from "vitest";
import { checkText, loneSurrogateAt } from "../src/domain/texts.js";
import { MAX_EXECUTION_TOKENS, planExecutions } from "../src/domain/batching.js";
import { cutKeepingLast } from "../src/domain/truncation.js";
import { poolWindows, splitIntoWindows } from "../src/domain/windows.js";
import { detectNonEnglish } from "../src/domain/language.js";
import { UseTokenizer, type Piece } from "../src/domain/use-tokenizer.js";
import { cosine, meanPool, normalize, rankByScore, toBase64 } from "../src/domain/vectors.js";

describe("vectors", () => {
  it("computes cosine, unit length and mean pooling", () => {
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(cosine([1, 2], [2, 4])).toBeCloseTo(1, 12);
    expect(cosine([0, 0], [1, 1])).toBe(0);
    expect(Array.from(normalize(new Float32Array([3, 4])))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    // Two dimensions, three tokens; the third is padding.
    const pooled = meanPool(new Float32Array([1, 2, 3, 4, 100, 100]), 3, 2, [1n, 1n, 0n]);
    expect(Array.from(pooled)).toEqual([2, 3]);
  });

  it("encodes base64 like OpenAI (float32 little-endian)", () => {
    expect(toBase64(new Float32Array([1, -2]))).toBe(Buffer.from([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]).toString("base64"));
  });

  it("ranks by score, ties in input order", () => {
    expect(rankByScore([0.1, 0.9, 0.1, 0.5]).map((r) => r.index)).toEqual([1, 3, 0, 2]);
  });

  it("cuts ids at the limit keeping the closing token", () => {
    expect(Array.from(cutKeepingLast(BigInt64Array.from([101n, 1n, 2n, 3n, 102n]), 3))).toEqual([101n, 1n, 102n]);
    expect(Array.from(cutKeepingLast(Int32Array.from([1, 2]), 3))).toEqual([1, 2]);
  });
});

describe("texts", () => {
  it("finds lone surrogates and accepts pairs", () => {
    expect(loneSurrogateAt("a🎉b")).toBe(-1);
    expect(loneSurrogateAt("ab\ud800")).toBe(2);
    expect(loneSurrogateAt("\udc00x")).toBe(0);
    expect(checkText("x".repeat(100_000), "input")).toBeNull();
    expect(checkText("x".repeat(100_001), "input")?.kind).toBe("too_large");
  });
});

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

describe("planning USE-lite executions", () => {
  it("pads to a multiple of 4, groups rows of similar length and keeps within the token budget", () => {
    expect(planExecutions([5, 17, 8, 18])).toEqual([
      { rows: [0, 2], paddedLength: 8 },
      { rows: [1, 3], paddedLength: 20 },
    ]);
    expect(planExecutions([12])).toEqual([{ rows: [0], paddedLength: 12 }]);
    const long = planExecutions(Array(40).fill(512));
    expect(long.map((e) => e.rows.length)).toEqual([15, 15, 10]);
    for (const e of long) expect((e.rows.length + 1) * e.paddedLength).toBeLessThanOrEqual(MAX_EXECUTION_TOKENS);
  });
});

describe("windows of a long text", () => {
  it("splits into near-equal consecutive windows, one window up to the window size", () => {
    expect(splitIntoWindows(128, 128)).toEqual([{ start: 0, end: 128 }]);
    expect(splitIntoWindows(129, 128)).toEqual([
      { start: 0, end: 65 },
      { start: 65, end: 129 },
    ]);
    expect(splitIntoWindows(512, 128).map((w) => w.end - w.start)).toEqual([128, 128, 128, 128]);
    expect(splitIntoWindows(300, 128).map((w) => w.end - w.start)).toEqual([100, 100, 100]);
  });
  it("pools by the token-weighted mean, and leaves one window's vector untouched", () => {
    const only = new Float32Array([0.1, 0.2]);
    expect(poolWindows([only], [7])).toBe(only);
    expect(Array.from(poolWindows([new Float32Array([1, 0]), new Float32Array([0, 1])], [3, 1]))).toEqual([0.75, 0.25]);
  });
});

describe("language of a text for the English-only models", () => {
  it("stays silent on short English texts, names, titles and addresses", () => {
    for (const text of [
      "How do I reset my password?",
      "How old are you?",
      "Our office opens at nine.",
      "Passwords must have 12 characters.",
      "The cat sits on the mat.",
      "Juan de la Cruz",
      "Marguerite De La Motte",
      "Kansas Saloon Smashers",
      "iPhone 15 Pro Max 256GB",
      "Déjà vu all over again",
      "see https://en.wikipedia.org/wiki/Ella_Cinders_(film) for more",
      "Hello",
      "12345",
    ])
      expect(detectNonEnglish(text)).toBeNull();
  });
  it("names the language of texts in other languages and scripts", () => {
    const cases: Array<[string, string]> = [
      ["Le chat est sur le canapé.", "fra"],
      ["Der Hund schläft im Garten.", "deu"],
      ["El perro duerme en el jardín.", "spa"],
      ["Il gatto è sul divano.", "ita"],
      ["Onde fica a estação de trem mais próxima?", "por"],
      ["Katten sitter på soffan och det är bra", "swe"],
      ["Kot siedzi na kanapie i nie chce zejść", "pol"],
      ["猫在沙发上", "cmn"],
      ["ソファの上の猫", "jpn"],
    ];
    for (const [text, code] of cases) expect(detectNonEnglish(text)?.code).toBe(code);
  });
});
