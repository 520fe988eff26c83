import { describe, expect, it } from "vitest";
import { decodeBmp, BmpError } from "../../src/domain/bmp.js";
import { encodeBmp24, encodeBmp8TopDown } from "../support/render.js";

describe("BMP decoding", () => {
  const gray = { width: 5, height: 3, data: Buffer.from([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 255]) };
  const expectGray = (decoded: { width: number; height: number; data: Buffer }) => {
    expect([decoded.width, decoded.height]).toEqual([5, 3]);
    for (let i = 0; i < 15; i++) expect([...decoded.data.subarray(i * 4, i * 4 + 4)]).toEqual([gray.data[i], gray.data[i], gray.data[i], 255]);
  };
  it("decodes 24-bit bottom-up rows with padding", () => expectGray(decodeBmp(encodeBmp24(gray))));
  it("decodes 8-bit palette top-down rows", () => expectGray(decodeBmp(encodeBmp8TopDown(gray))));
  it("refuses run-length compressed files and truncated pixel data", () => {
    const rle = encodeBmp8TopDown(gray);
    rle.writeUInt32LE(1, 30);
    expect(() => decodeBmp(rle)).toThrow(BmpError);
    expect(() => decodeBmp(encodeBmp24(gray).subarray(0, 60))).toThrow("BMP pixel data is truncated");
  });
});
