import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Checks rendered PDFs with poppler-utils, independent of the code that produced them. */
let counter = 0;

/** Runs a poppler tool on the PDF written to a temporary file, removed afterwards. */
function onFile<T>(pdf: Uint8Array, use: (file: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), "pdfgen-test-"));
  const file = path.join(dir, `doc-${++counter}.pdf`);
  try {
    writeFileSync(file, pdf);
    return use(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface PdfInfo {
  pages: number;
  tagged: boolean;
  title: string;
  /** Size of the first page in points, as pdfinfo prints it. */
  widthPt: number;
  heightPt: number;
  raw: string;
}

export function pdfInfo(pdf: Uint8Array): PdfInfo {
  const raw = onFile(pdf, (file) => execFileSync("pdfinfo", [file], { encoding: "utf8" }));
  const field = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "m").exec(raw)?.[1]?.trim() ?? "";
  const size = /^Page size:\s*([\d.]+) x ([\d.]+) pts/m.exec(raw);
  return {
    pages: Number(field("Pages")),
    tagged: field("Tagged") === "yes",
    title: field("Title"),
    widthPt: Number(size?.[1]),
    heightPt: Number(size?.[2]),
    raw,
  };
}

/** Sizes of every page, in points. */
export function pageSizes(pdf: Uint8Array): Array<{ width: number; height: number }> {
  const raw = onFile(pdf, (file) => execFileSync("pdfinfo", ["-f", "1", "-l", "100000", file], { encoding: "utf8" }));
  return [...raw.matchAll(/^Page\s+\d+ size:\s*([\d.]+) x ([\d.]+) pts/gm)].map((m) => ({ width: Number(m[1]), height: Number(m[2]) }));
}

/** The text of each page (pdftotext separates pages with form feeds). */
export function pageTexts(pdf: Uint8Array): string[] {
  const text = onFile(pdf, (file) => execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" }));
  const pages = text.split("\f");
  if (pages[pages.length - 1].trim() === "") pages.pop();
  return pages;
}

/** Word boxes of one page (pdftotext -bbox), in points from the top-left corner. */
export function wordBoxes(pdf: Uint8Array, page = 1): Array<{ word: string; xMin: number; yMin: number; xMax: number; yMax: number }> {
  const html = onFile(pdf, (file) => execFileSync("pdftotext", ["-bbox", "-f", String(page), "-l", String(page), file, "-"], { encoding: "utf8" }));
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    word: m[5],
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
  }));
}

export function fontNames(pdf: Uint8Array): string[] {
  const raw = onFile(pdf, (file) => execFileSync("pdffonts", [file], { encoding: "utf8" }));
  return raw
    .split("\n")
    .slice(2)
    .filter(Boolean)
    .map((line) => line.split(/\s+/)[0]);
}

export function allFontsEmbedded(pdf: Uint8Array): boolean {
  const raw = onFile(pdf, (file) => execFileSync("pdffonts", [file], { encoding: "utf8" }));
  const rows = raw.split("\n").slice(2).filter(Boolean);
  return rows.length > 0 && rows.every((line) => /\syes\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$/.test(line));
}

/** The colour of the pixel at (x, y) fractions of the first page, rasterised by pdftoppm at 20 dpi. */
export function pixelAt(pdf: Uint8Array, xFraction: number, yFraction: number): [number, number, number] {
  const ppm = onFile(pdf, (file) => execFileSync("pdftoppm", ["-r", "20", "-f", "1", "-l", "1", file]));
  // Binary PPM: "P6\n<width> <height>\n<max>\n" then RGB triplets.
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 50).toString("latin1"))!;
  const [width, height] = [Number(header[1]), Number(header[2])];
  const offset = header[0].length + (Math.floor(yFraction * height) * width + Math.floor(xFraction * width)) * 3;
  return [ppm[offset], ppm[offset + 1], ppm[offset + 2]];
}
