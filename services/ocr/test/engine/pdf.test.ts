import { describe, expect, it } from "vitest";
import { dpiWithinPixelLimit, parsePageSelection } from "../../src/engine/pdf.js";

describe("page selection", () => {
  it("parses ranges into sorted unique pages", () => {
    expect(parsePageSelection("3,1-2,2", 5)).toEqual({ ok: true, pages: [1, 2, 3] });
  });
  it("refuses pages past the end and backwards ranges", () => {
    expect(parsePageSelection("4", 3)).toEqual({ ok: false, issue: "must be between 1 and 3 (the document has 3 pages)" });
    expect(parsePageSelection("3-2", 3).ok).toBe(false);
    expect(parsePageSelection("0", 3).ok).toBe(false);
    expect(parsePageSelection("a", 3).ok).toBe(false);
  });
  it("lowers the PDF render resolution so a page stays within the pixel limit", () => {
    // A4 is 595 x 842 pt: at 300 dpi 2480 x 3508 = 8.7 MP.
    expect(dpiWithinPixelLimit({ widthPt: 595, heightPt: 842 }, 300, 40_000_000)).toBe(300);
    // A0 (2384 x 3370 pt) at 300 dpi would be 139 MP: 160 dpi gives 7450 x 4966... within 40 MP.
    const dpi = dpiWithinPixelLimit({ widthPt: 2384, heightPt: 3370 }, 300, 40_000_000);
    expect(dpi).toBe(160);
    expect(Math.ceil((2384 / 72) * dpi) * Math.ceil((3370 / 72) * dpi)).toBeLessThanOrEqual(40_000_000);
  });
});
