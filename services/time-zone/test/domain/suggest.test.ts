import { describe, expect, it } from "vitest";
import { closeMatches, editDistance } from "../../src/domain/suggest.js";

describe("close matches", () => {
  it("counts a swap of neighbours as one edit", () => {
    expect([editDistance("berlin", "berlni"), editDistance("", "abc"), editDistance("kitten", "sitting")]).toEqual([1, 3, 3]);
  });

  it("gives the same answer with a cut-off as without, up to the cut-off", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const word = () => Array.from({ length: Math.floor(random() * 12) }, () => "abcd"[Math.floor(random() * 4)]).join("");
    for (let i = 0; i < 2000; i++) {
      const [a, b, max] = [word(), word(), Math.floor(random() * 5)];
      expect(Math.min(editDistance(a, b, max), max + 1)).toBe(Math.min(editDistance(a, b), max + 1));
    }
  });

  it("matches typos, bare cities and parts of names, closest first", () => {
    const names = ["Europe/Berlin", "Europe/Dublin", "America/New_York", "US/Eastern", "Asia/Kolkata"];
    expect(closeMatches("Europe/Berln", names)).toEqual(["Europe/Berlin"]);
    expect(closeMatches("new york", names)).toEqual(["America/New_York"]);
    expect(closeMatches("BERLIN", names)).toEqual(["Europe/Berlin"]);
    expect(closeMatches("Mars/Olympus", names)).toEqual([]);
  });
});
