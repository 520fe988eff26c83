import { describe, expect, it } from "vitest";
import { estimateSkewDegrees } from "../../src/domain/deskew.js";
import { renderSvgPng, renderTextPng, simulateScan, toGrayRaw } from "../support/render.js";

describe("skew estimation", () => {
  it("measures the angle a scan was turned by, to within 0.3 degrees", async () => {
    const png = await renderTextPng(
      "Projection profiles level the lines of a page.\nEvery line of text adds to the sharpest profile.\nA third line makes the estimate steadier still.",
      { pointSize: 11 },
    );
    for (const degrees of [4, -7]) {
      const scan = await toGrayRaw(await simulateScan(png, degrees));
      expect(Math.abs(estimateSkewDegrees(scan) - degrees)).toBeLessThanOrEqual(0.3);
    }
    expect(Math.abs(estimateSkewDegrees(await toGrayRaw(png)))).toBeLessThanOrEqual(0.1);
  });
  it("leaves a blank page alone", async () => {
    expect(estimateSkewDegrees(await toGrayRaw(await renderSvgPng(400, 300, "")))).toBe(0);
  });
});
