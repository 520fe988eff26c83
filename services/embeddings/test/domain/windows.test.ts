import { describe, expect, it } from "vitest";
import { poolWindows, splitIntoWindows } from "../../src/domain/windows.js";

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
