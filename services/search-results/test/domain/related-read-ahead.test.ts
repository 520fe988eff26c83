import { describe, expect, it, vi } from "vitest";

describe("reading texts for related searches ahead of the searches", () => {
  it("reads while fewer than half the 20,000 texts kept are held: the 10,000th text is read, the next is refused", async () => {
    // A fresh copy of the module: the suite's files share modules, and other tests' searches fill the same table.
    vi.resetModules();
    const { readForRelated, relatedQueries } = await import("../../src/domain/related.js");
    const answers = Array.from({ length: 10_001 }, (_, i) => readForRelated(`moka pot ${i} crema espresso stove number${i}`));
    expect(answers.slice(0, 10_000).every(Boolean)).toBe(true);
    expect(answers[10_000]).toBe(false);
    // Past the bound even a text already held is refused, and searches still answer from what was read.
    expect(readForRelated("moka pot 0 crema espresso stove number0")).toBe(false);
    const texts = ["moka pot 1 crema espresso stove number1", "moka pot 2 crema espresso stove number2"];
    // The pairs both texts hold, alphabetically at equal spread; their single words add nothing beside them.
    expect(relatedQueries("moka pot", texts)).toEqual(["moka pot crema espresso", "moka pot espresso stove"]);
  });
});
