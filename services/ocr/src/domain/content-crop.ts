import type { PixelRect } from "./geometry.js";
import type { GrayImage } from "./gray-image.js";
import type { EngineBbox, EnginePage } from "./layout.js";

/** A pixel at or below this grey level counts as ink (0 black, 255 white). */
const INK_LEVEL = 160;
/** White kept around the ink: Tesseract's line finding wants some margin, and a faint stroke may sit outside. */
const PADDING_PX = 24;
/** Cropping less than this share of the pixels is not worth the copy. */
const MIN_SAVED_SHARE = 0.05;

function rowHasInk(image: GrayImage, y: number): boolean {
  const row = y * image.width;
  for (let x = 0; x < image.width; x++) if (image.data[row + x] <= INK_LEVEL) return true;
  return false;
}

/**
 * The part of a page that holds ink, with padding, or null when there is none or cropping would save little.
 * Scans inward from each edge and stops at the first ink, so its cost is about the margins' area. The side margins
 * are scanned row by row (in memory order), each row only as far as the left and right bounds found so far.
 */
export function inkedRegion(image: GrayImage): PixelRect | null {
  let top = 0;
  while (top < image.height && !rowHasInk(image, top)) top++;
  if (top === image.height) return null;
  let bottom = image.height;
  while (bottom > top && !rowHasInk(image, bottom - 1)) bottom--;
  let left = image.width;
  let right = 0;
  for (let y = top; y < bottom; y++) {
    const row = y * image.width;
    for (let x = 0; x < left; x++) {
      if (image.data[row + x] <= INK_LEVEL) {
        left = x;
        break;
      }
    }
    for (let x = image.width - 1; x >= Math.max(right, left); x--) {
      if (image.data[row + x] <= INK_LEVEL) {
        right = x + 1;
        break;
      }
    }
  }
  const region = {
    left: Math.max(0, left - PADDING_PX),
    top: Math.max(0, top - PADDING_PX),
    width: Math.min(image.width, right + PADDING_PX) - Math.max(0, left - PADDING_PX),
    height: Math.min(image.height, bottom + PADDING_PX) - Math.max(0, top - PADDING_PX),
  };
  const saved = 1 - (region.width * region.height) / (image.width * image.height);
  return saved < MIN_SAVED_SHARE ? null : region;
}

/** The engine's boxes for a cropped region, moved back to the coordinates of the whole page. */
export function toPageCoordinates(page: EnginePage, region: PixelRect): EnginePage {
  const shift = (bbox: EngineBbox): EngineBbox => ({
    x0: bbox.x0 + region.left,
    y0: bbox.y0 + region.top,
    x1: bbox.x1 + region.left,
    y1: bbox.y1 + region.top,
  });
  if (!page.blocks) return page;
  return {
    ...page,
    blocks: page.blocks.map((block) => ({
      ...block,
      bbox: shift(block.bbox),
      paragraphs: block.paragraphs.map((paragraph) => ({
        ...paragraph,
        lines: paragraph.lines.map((line) => ({ ...line, bbox: shift(line.bbox), words: line.words.map((word) => ({ ...word, bbox: shift(word.bbox) })) })),
      })),
    })),
  };
}
