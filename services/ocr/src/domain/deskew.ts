import sharp from "sharp";
import { grayFromPipeline, type GrayImage } from "./gray-image.js";
import { otsuThreshold } from "./tables.js";

const MAX_SKEW_DEGREES = 15;
const SAMPLE_WIDTH = 600;
/** Skews smaller than this are left alone: rotating resamples the page and costs more than it brings. */
export const MIN_CORRECTED_SKEW_DEGREES = 0.3;

/**
 * Estimates page skew by projection profiles: on a downscaled, binarised copy, the dark pixels are projected onto
 * the vertical axis at candidate angles; text lines give the sharpest profile (largest variance of row sums) at the
 * angle that levels them. Coarse 0.5° steps over ±15°, then 0.05° steps around the best. Positive means the text
 * runs downhill to the right (clockwise), the direction `correctSkew` rotates back.
 */
export function estimateSkewDegrees(image: GrayImage): number {
  const step = Math.max(1, Math.floor(image.width / SAMPLE_WIDTH));
  const sampled = sampleGrid(image, step);
  const threshold = otsuThreshold(sampled.pixels);
  // Dark samples as grid coordinates, in typed arrays: the profile below visits each of them for every angle.
  let dark = 0;
  for (let i = 0; i < sampled.pixels.length; i++) if (sampled.pixels[i] < threshold) dark++;
  // A blank or nearly blank page has nothing to level.
  if (dark < 200) return 0;
  const xs = new Float64Array(dark);
  const ys = new Float64Array(dark);
  for (let i = 0, n = 0; i < sampled.pixels.length; i++) {
    if (sampled.pixels[i] < threshold) {
      xs[n] = i % sampled.columns;
      ys[n++] = Math.floor(i / sampled.columns);
    }
  }
  const rows = Math.ceil(Math.hypot(image.width, image.height) / step) * 2 + 4;
  const histogram = new Float64Array(rows);
  const score = (degrees: number) => profileSharpness(xs, ys, degrees, histogram);
  let best = 0;
  let bestScore = score(0);
  for (let angle = -MAX_SKEW_DEGREES; angle <= MAX_SKEW_DEGREES; angle += 0.5) {
    const s = score(angle);
    if (s > bestScore) [best, bestScore] = [angle, s];
  }
  const coarse = best;
  for (let angle = coarse - 0.5; angle <= coarse + 0.5; angle += 0.05) {
    const s = score(angle);
    if (s > bestScore) [best, bestScore] = [angle, s];
  }
  return Math.round(best * 100) / 100;
}

/** Every `step`-th pixel of every `step`-th row: the downscaled copy the skew is measured on. */
function sampleGrid(image: GrayImage, step: number): { pixels: Uint8Array; columns: number } {
  const columns = Math.ceil(image.width / step);
  const pixels = new Uint8Array(columns * Math.ceil(image.height / step));
  let n = 0;
  for (let y = 0; y < image.height; y += step) {
    const row = y * image.width;
    for (let x = 0; x < image.width; x += step) pixels[n++] = image.data[row + x];
  }
  return { pixels, columns };
}

function profileSharpness(xs: Float64Array, ys: Float64Array, degrees: number, histogram: Float64Array): number {
  const radians = (degrees * Math.PI) / 180;
  const sin = Math.sin(radians);
  const cos = Math.cos(radians);
  const rows = histogram.length;
  histogram.fill(0);
  const offset = rows / 2;
  for (let i = 0; i < xs.length; i++) {
    const row = Math.round(ys[i] * cos - xs[i] * sin + offset);
    if (row >= 0 && row < rows) histogram[row]++;
  }
  let sumSquares = 0;
  for (let i = 0; i < rows; i++) sumSquares += histogram[i] * histogram[i];
  return sumSquares;
}

/** Rotates the page to level its text; the canvas grows to keep the corners, new areas are white. */
export async function correctSkew(image: GrayImage, skewDegrees: number): Promise<GrayImage> {
  const pipeline = sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } });
  return grayFromPipeline(pipeline.rotate(-skewDegrees, { background: "#ffffff" }));
}

/** Turns the page clockwise by a multiple of 90 degrees (for pages scanned sideways or upside down). */
export async function rotateQuarterTurns(image: GrayImage, degrees: number): Promise<GrayImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
    .rotate(degrees)
    .grayscale()
    .raw({ depth: "uchar" })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected one channel, got ${info.channels}`);
  return { width: info.width, height: info.height, data };
}
