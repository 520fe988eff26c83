import { describe, expect, it } from "vitest";
import { parseQuery } from "../../src/domain/search.js";

describe("parseQuery", () => {
  it("splits the name from its qualifiers", () => {
    expect(parseQuery("Paris, Texas, US")).toEqual({ name: "paris", qualifiers: ["texas", "us"] });
    expect(parseQuery("Berlin,,  ")).toEqual({ name: "berlin", qualifiers: [] });
  });

  it("refuses a name part of fewer than two letters", () => {
    expect(() => parseQuery("a, Texas")).toThrow("q must name a place with at least 2 letters or digits before any comma");
    expect(() => parseQuery("--")).toThrow(/at least 2 letters/);
  });
});
