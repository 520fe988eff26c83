import { DEFAULTS, LIMITS } from "./limits.js";
import { RenderError } from "./errors.js";

export type PageSize = "A4" | "Letter" | "Legal";
export type Orientation = "portrait" | "landscape";
type MarginInput = string | { top?: string; right?: string; bottom?: string; left?: string };
export interface Margins {
  top: string;
  right: string;
  bottom: string;
  left: string;
}

/** Page sizes in PostScript points (1/72 in), portrait. */
const PAGE_SIZES_PT: Record<PageSize, { width: number; height: number }> = {
  A4: { width: 595.28, height: 841.89 },
  Letter: { width: 612, height: 792 },
  Legal: { width: 612, height: 1008 },
};

const MM_PER_UNIT: Record<string, number> = { mm: 1, cm: 10, in: 25.4, pt: 25.4 / 72, px: 25.4 / 96 };
const LENGTH_PATTERN = /^(\d+(?:\.\d+)?)(mm|cm|in|pt|px)?$/;

/** A CSS length in mm; a bare number is read as px, as CSS and Chromium do. */
function lengthToMm(length: string, field: string): number {
  const match = LENGTH_PATTERN.exec(length.trim());
  if (!match)
    throw new RenderError(
      "invalid_option",
      `${field} must be a length such as "15mm", "1in", "0.5cm", "20pt" or "40px".`,
      field,
      "must be a number followed by mm, cm, in, pt or px",
    );
  return Number(match[1]) * MM_PER_UNIT[match[2] ?? "px"];
}

/** Chromium takes mm, cm, in and px; points are given to it in mm so every unit we accept reaches it exactly. */
function normalizeLength(length: string, field: string): string {
  const mm = lengthToMm(length, field);
  if (mm > LIMITS.marginMaxMm) {
    throw new RenderError("invalid_option", `${field} must be at most ${LIMITS.marginMaxMm}mm.`, field, `must be at most ${LIMITS.marginMaxMm}mm`);
  }
  return `${Number(mm.toFixed(4))}mm`;
}

export function resolveMargins(input: MarginInput | undefined): Margins {
  if (input === undefined || typeof input === "string") {
    const all = normalizeLength(input ?? DEFAULTS.margin, "margin");
    return { top: all, right: all, bottom: all, left: all };
  }
  const side = (name: keyof Margins) => normalizeLength(input[name] ?? DEFAULTS.margin, `margin.${name}`);
  return { top: side("top"), right: side("right"), bottom: side("bottom"), left: side("left") };
}

/** The printable box must keep some room: margins that eat the whole page are refused, not silently rendered blank. */
export function assertMarginsFit(margins: Margins, pageSize: PageSize, orientation: Orientation): void {
  const size = PAGE_SIZES_PT[pageSize];
  const [widthPt, heightPt] = orientation === "landscape" ? [size.height, size.width] : [size.width, size.height];
  const toMm = (pt: number) => (pt * 25.4) / 72;
  const mm = (value: string) => Number(value.replace("mm", ""));
  const minContentMm = 20;
  const requireRoom = (lengthPt: number, first: keyof Margins, second: keyof Margins, dimension: "width" | "height") => {
    if (toMm(lengthPt) - mm(margins[first]) - mm(margins[second]) < minContentMm) {
      throw new RenderError(
        "invalid_option",
        `margin: ${first} and ${second} margins leave less than ${minContentMm}mm of page ${dimension}.`,
        "margin",
        `${first} + ${second} must leave at least ${minContentMm}mm of the page ${dimension}`,
      );
    }
  };
  requireRoom(widthPt, "left", "right", "width");
  requireRoom(heightPt, "top", "bottom", "height");
}

/** "report" -> "report.pdf"; characters that would break a Content-Disposition header are refused by the schema. */
export function resolveFilename(filename: string | undefined): string {
  const name = (filename ?? DEFAULTS.filename).trim();
  return /\.pdf$/i.test(name) ? name : `${name}.pdf`;
}
