import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CODE_ALPHABET, generateCode, isReservedCode } from "../../src/domain/codes.js";

describe("codes", () => {
  it("are drawn from base62 at the requested length with every character reachable", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const code = generateCode(7, randomBytes);
      expect(code).toMatch(/^[0-9A-Za-z]{7}$/);
      for (const char of code) seen.add(char);
    }
    expect(seen.size).toBe(CODE_ALPHABET.length);
    expect(generateCode(12, randomBytes)).toHaveLength(12);
  });

  it("reserve the service's own words case-insensitively", () => {
    expect(isReservedCode("Stats")).toBe(true);
    expect(isReservedCode("openapi.json")).toBe(true);
    expect(isReservedCode("statsx")).toBe(false);
  });
});
