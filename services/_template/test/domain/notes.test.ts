import { describe, expect, it } from "vitest";
import { countWords, normalizeTitle } from "../../src/domain/notes.js";

// domain/ is pure logic, so its rules are tested directly, without a platform.
describe("countWords", () => {
  it("counts words as a reader does, punctuation and dashes aside", () => {
    expect(countWords("Milk, eggs and bread — and 2 apples.")).toBe(7);
    expect(countWords("")).toBe(0);
    expect(countWords("  \n\t ")).toBe(0);
  });

  it("counts words in a script without spaces", () => {
    expect(countWords("東京は晴れ")).toBe(3);
  });
});

describe("normalizeTitle", () => {
  it("makes every run of white space one space and trims the ends", () => {
    expect(normalizeTitle("  Shopping \n list\t ")).toBe("Shopping list");
    expect(normalizeTitle("one")).toBe("one");
  });
});
