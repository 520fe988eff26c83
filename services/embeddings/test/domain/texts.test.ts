import { describe, expect, it } from "vitest";
import { checkText, loneSurrogateAt } from "../../src/domain/texts.js";

describe("texts", () => {
  it("finds lone surrogates and accepts pairs", () => {
    expect(loneSurrogateAt("a🎉b")).toBe(-1);
    expect(loneSurrogateAt("ab\ud800")).toBe(2);
    expect(loneSurrogateAt("\udc00x")).toBe(0);
    expect(checkText("x".repeat(100_000), "input")).toBeNull();
    expect(checkText("x".repeat(100_001), "input")?.kind).toBe("too_large");
  });
});
