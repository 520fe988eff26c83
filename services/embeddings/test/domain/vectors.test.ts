import { describe, expect, it } from "vitest";
import { cutKeepingLast } from "../../src/domain/truncation.js";
import { cosine, meanPool, normalize, rankByScore, toBase64 } from "../../src/domain/vectors.js";

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
