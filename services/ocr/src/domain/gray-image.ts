import type sharp from "sharp";
import type { PixelRect } from "./geometry.js";

/** One page as 8-bit grayscale pixels, rows top to bottom: what the engine and the table finder read. */
export interface GrayImage {
  width: number;
  height: number;
  data: Buffer;
}

/**
 * Binary PGM (P5) of the image, or of a rectangle of it: Leptonica reads it without any decompression. The rows are
 * copied once, straight into the file.
 */
export function toPgm(image: GrayImage, region: PixelRect = { left: 0, top: 0, width: image.width, height: image.height }): Buffer {
  const header = Buffer.from(`P5\n${region.width} ${region.height}\n255\n`, "latin1");
  const file = Buffer.allocUnsafe(header.length + region.width * region.height);
  header.copy(file);
  if (region.width === image.width) {
    image.data.copy(file, header.length, region.top * image.width, (region.top + region.height) * image.width);
    return file;
  }
  for (let y = 0; y < region.height; y++) {
    const from = (region.top + y) * image.width + region.left;
    image.data.copy(file, header.length + y * region.width, from, from + region.width);
  }
  return file;
}

/** Parses the binary PGM that pdftoppm -gray writes. */
export function parsePgm(bytes: Buffer): GrayImage {
  const tokens: string[] = [];
  let at = 0;
  while (tokens.length < 4 && at < bytes.length) {
    while (at < bytes.length && /\s/.test(String.fromCharCode(bytes[at]))) at++;
    if (bytes[at] === 0x23) {
      while (at < bytes.length && bytes[at] !== 0x0a) at++;
      continue;
    }
    const start = at;
    while (at < bytes.length && !/\s/.test(String.fromCharCode(bytes[at]))) at++;
    tokens.push(bytes.toString("latin1", start, at));
  }
  const [magic, width, height, maxValue] = [tokens[0], Number(tokens[1]), Number(tokens[2]), Number(tokens[3])];
  if (magic !== "P5" || !(width > 0) || !(height > 0) || maxValue !== 255) throw new Error("unexpected PGM output");
  const data = bytes.subarray(at + 1, at + 1 + width * height);
  if (data.length !== width * height) throw new Error("truncated PGM output");
  return { width, height, data };
}

/** Transparent areas become white paper, colour becomes luminance; EXIF orientation was applied by the caller. */
export async function grayFromPipeline(pipeline: sharp.Sharp): Promise<GrayImage> {
  const { data, info } = await pipeline.flatten({ background: "#ffffff" }).grayscale().raw({ depth: "uchar" }).toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected one channel, got ${info.channels}`);
  return { width: info.width, height: info.height, data };
}
