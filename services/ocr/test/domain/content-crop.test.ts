import { describe, expect, it } from "vitest";
import { inkedRegion, toPageCoordinates } from "../../src/domain/content-crop.js";
import { parsePgm, toPgm } from "../../src/domain/gray-image.js";

describe("cropping a page to its ink", () => {
  const page = (width: number, height: number, inked: Array<[number, number]>) => {
    const data = Buffer.alloc(width * height, 255);
    for (const [x, y] of inked) data[y * width + x] = 40;
    return { width, height, data };
  };

  it("finds the inked rectangle exactly and keeps 24 px of white around it", () => {
    const image = page(1000, 800, [
      [300, 200],
      [650, 210],
      [420, 590],
      [299, 400],
    ]);
    expect(inkedRegion(image)).toEqual({ left: 299 - 24, top: 200 - 24, width: 651 + 24 - (299 - 24), height: 591 + 24 - (200 - 24) });
    const region = inkedRegion(image)!;
    const cropped = parsePgm(toPgm(image, region));
    expect([cropped.width, cropped.height]).toEqual([region.width, region.height]);
    expect(cropped.data[(200 - region.top) * cropped.width + (300 - region.left)]).toBe(40);
    expect(cropped.data.reduce((inked, value) => inked + (value === 40 ? 1 : 0), 0)).toBe(4);
    const fullWidth = { left: 0, top: region.top, width: image.width, height: region.height };
    expect(parsePgm(toPgm(image, fullWidth)).data).toEqual(image.data.subarray(region.top * image.width, (region.top + region.height) * image.width));
  });

  it("leaves a blank page, and one inked from edge to edge, uncropped", () => {
    expect(inkedRegion(page(400, 300, []))).toBeNull();
    expect(
      inkedRegion(
        page(400, 300, [
          [0, 0],
          [399, 299],
        ]),
      ),
    ).toBeNull();
  });

  it("moves every box the engine found back to page coordinates", () => {
    const bbox = { x0: 1, y0: 2, x1: 30, y1: 40 };
    const moved = toPageCoordinates(
      {
        text: "a",
        confidence: 90,
        blocks: [
          { text: "a", confidence: 90, bbox, paragraphs: [{ lines: [{ text: "a", confidence: 90, bbox, words: [{ text: "a", confidence: 90, bbox }] }] }] },
        ],
      },
      { left: 100, top: 200, width: 50, height: 60 },
    );
    const block = moved.blocks![0];
    const shifted = { x0: 101, y0: 202, x1: 130, y1: 240 };
    expect([block.bbox, block.paragraphs[0].lines[0].bbox, block.paragraphs[0].lines[0].words[0].bbox]).toEqual([shifted, shifted, shifted]);
  });
});
