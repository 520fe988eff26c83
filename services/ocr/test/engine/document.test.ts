import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { openDocument } from "../../src/engine/document.js";
import { InputLimitError } from "../../src/domain/errors.js";

describe("image limits", () => {
  it("decodes an image of exactly the pixel limit and refuses one pixel row more", async () => {
    const limits = { maxPixels: 40_000_000, maxPages: 10, toolTimeoutMs: 30_000 };
    const atLimit = await sharp({ create: { width: 8000, height: 5000, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const source = await openDocument(atLimit, { dpi: 300 }, limits);
    const page = await source.render(1);
    expect([page.image.width, page.image.height, page.image.data.length]).toEqual([8000, 5000, 40_000_000]);
    const over = await sharp({ create: { width: 8000, height: 5001, channels: 3, background: "#ffffff" } })
      .png()
      .toBuffer();
    const overSource = await openDocument(over, { dpi: 300 }, limits);
    await expect(overSource.render(1)).rejects.toThrow(
      new InputLimitError("image", "is 8000x5001 = 40,008,000 pixels; at most 40,000,000 pixels are accepted"),
    );
  });
});
