import { describe, expect, it } from "vitest";
import { missingVariables, requiredVariables } from "../../src/domain/templates.js";

describe("template variables", () => {
  it("requires names outside sections; sections are optional", () => {
    expect(requiredVariables("{{a}} {{{b}}} {{& c}} {{#d}}{{e}}{{/d}} {{^f}}x{{/f}}")).toEqual(["a", "b", "c"]);
    expect(missingVariables(["{{a}} {{b.c}}"], { a: 0, b: { c: null } })).toEqual(["b.c"]);
  });
});
