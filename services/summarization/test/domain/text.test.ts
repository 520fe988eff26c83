import { describe, expect, it } from "vitest";
import { toolsFor } from "../../src/domain/languages.js";
import { countTokens, countWords, cutIntoWindows } from "../../src/domain/text.js";

const en = toolsFor("en");

describe("cutIntoWindows", () => {
  it("cuts after a boundary past each window, or hard at twice the window, and loses nothing", () => {
    const text = "abc. ".repeat(10);
    const windows = cutIntoWindows(text, 8, /\.\s+/u);
    expect(windows.join("")).toBe(text);
    expect(windows[0]).toBe("abc. abc. ");
    const solid = "x".repeat(50);
    expect(cutIntoWindows(solid, 10, /\.\s+/u).map((w) => w.length)).toEqual([20, 20, 10]);
    // Never between the two halves of a surrogate pair.
    expect(cutIntoWindows("😀".repeat(15), 5, /\.\s+/u).every((w) => !/^[\udc00-\udfff]/u.test(w))).toBe(true);
  });
});

describe("counting", () => {
  it("counts words and tokens as documented", () => {
    // Don't | stop | 4.2 | million | state-run | U.S | firms
    expect(countWords("Don't stop: 4.2 million, state-run U.S. firms!", "en")).toBe(7);
    // 7 words + ":" + "," + "." + "!" (the dot after U.S is a mark of its own: the word is "U.S").
    expect(countTokens("Don't stop: 4.2 million, state-run U.S. firms!", "en")).toBe(11);
    // Chinese: one token per Han character, one per mark.
    expect(countTokens("今天天气很好。", "zh")).toBe(7);
  });
});
