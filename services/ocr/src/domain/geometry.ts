/** A rectangle in pixels of the page image. */
export interface PixelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** A rectangle in pixels of the page image, plus the same rectangle as fractions (0-1) of the page size. */
export interface Box extends PixelRect {
  normalized: { left: number; top: number; width: number; height: number };
}

export interface PageSize {
  width: number;
  height: number;
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

export function makeBox(left: number, top: number, right: number, bottom: number, page: PageSize): Box {
  const width = Math.max(0, right - left);
  const height = Math.max(0, bottom - top);
  return {
    left,
    top,
    width,
    height,
    normalized: {
      left: round4(left / page.width),
      top: round4(top / page.height),
      width: round4(width / page.width),
      height: round4(height / page.height),
    },
  };
}

/** Tesseract reports 0-100; the API reports 0-1 with three decimals. */
export function toUnitConfidence(percent: number): number {
  const clamped = Math.min(100, Math.max(0, percent));
  return Math.round(clamped * 10) / 1000;
}
