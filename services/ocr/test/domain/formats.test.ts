import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { sniffFormat } from "../../src/domain/formats.js";
import { encodeBmp24, renderSvgPng, toGrayRaw } from "../support/render.js";

describe("format sniffing", () => {
  it("recognises each accepted format by its bytes", async () => {
    const png = await renderSvgPng(40, 20, "");
    expect(sniffFormat(png)).toBe("png");
    expect(sniffFormat(await sharp(png).jpeg().toBuffer())).toBe("jpeg");
    expect(sniffFormat(await sharp(png).tiff().toBuffer())).toBe("tiff");
    expect(sniffFormat(await sharp(png).webp().toBuffer())).toBe("webp");
    expect(sniffFormat(encodeBmp24(await toGrayRaw(png)))).toBe("bmp");
    expect(sniffFormat(Buffer.from("%PDF-1.7\n..."))).toBe("pdf");
    expect(sniffFormat(await sharp(png).gif().toBuffer())).toBe("gif");
    expect(sniffFormat(Buffer.from("GIF87a\x01\x00\x01\x00", "latin1"))).toBe("gif");
    expect(sniffFormat(Buffer.from("GIF90a......"))).toBeNull();
    expect(sniffFormat(Buffer.from("hello"))).toBeNull();
  });
});
