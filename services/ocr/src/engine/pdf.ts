import { execFile } from "node:child_process";
import { parsePgm, type GrayImage } from "../domain/gray-image.js";
import { UnreadableInputError } from "../domain/errors.js";

interface PdfPageSize {
  widthPt: number;
  heightPt: number;
}

const POINTS_PER_INCH = 72;

function run(command: string, args: string[], timeoutMs: number, maxBuffer: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer, encoding: "buffer", killSignal: "SIGKILL" }, (error, stdout, stderr) => {
      if (error) {
        const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? `${command} is not installed` : stderr.toString("utf8").trim();
        reject(Object.assign(new Error(reason || error.message), { killed: error.killed, missingTool: (error as NodeJS.ErrnoException).code === "ENOENT" }));
        return;
      }
      resolve(stdout);
    });
  });
}

/** The number of pages (pdfinfo from poppler-utils). */
export async function readPdfPageCount(file: string, timeoutMs: number): Promise<number> {
  let output: string;
  try {
    output = (await run("pdfinfo", [file], timeoutMs, 1 << 20)).toString("utf8");
  } catch (error) {
    throw toUnreadable(error);
  }
  const pageCount = Number(/^Pages:\s+(\d+)/m.exec(output)?.[1] ?? 0);
  if (pageCount === 0) throw new UnreadableInputError("the PDF has no pages");
  return pageCount;
}

/** Sizes in points of pages `first` to `last`, keyed by page number. */
export async function readPdfPageSizes(file: string, first: number, last: number, timeoutMs: number): Promise<Map<number, PdfPageSize>> {
  let output: string;
  try {
    output = (await run("pdfinfo", ["-f", String(first), "-l", String(last), file], timeoutMs, 1 << 20)).toString("utf8");
  } catch (error) {
    throw toUnreadable(error);
  }
  const sizes = new Map<number, PdfPageSize>();
  for (const match of output.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm)) {
    sizes.set(Number(match[1]), { widthPt: Number(match[2]), heightPt: Number(match[3]) });
  }
  return sizes;
}

/** The resolution at which a page fits within the pixel limit, never above the requested one. */
export function dpiWithinPixelLimit(size: PdfPageSize, requestedDpi: number, maxPixels: number): number {
  const pixelsPerDpiSquared = (size.widthPt / POINTS_PER_INCH) * (size.heightPt / POINTS_PER_INCH);
  const limitDpi = Math.floor(Math.sqrt(maxPixels / pixelsPerDpiSquared));
  return Math.max(1, Math.min(requestedDpi, limitDpi));
}

/** Renders one page (1-based) to grayscale at the given resolution (pdftoppm from poppler-utils). */
export async function renderPdfPage(file: string, page: number, dpi: number, timeoutMs: number, maxPixels: number): Promise<GrayImage> {
  const args = ["-r", String(dpi), "-f", String(page), "-l", String(page), "-gray", "-singlefile", file];
  try {
    return parsePgm(await run("pdftoppm", args, timeoutMs, maxPixels + 1024));
  } catch (error) {
    throw toUnreadable(error);
  }
}

function toUnreadable(error: unknown): Error {
  if (error instanceof UnreadableInputError) return error;
  const details = error as { killed?: boolean; missingTool?: boolean; message?: string };
  if (details.missingTool) return new Error(details.message);
  if (details.killed) return new UnreadableInputError("the PDF took too long to render");
  const message = details.message ?? "";
  if (/password|encrypt/i.test(message)) return new UnreadableInputError("the PDF is encrypted; send it without a password");
  return new UnreadableInputError("the PDF could not be read (damaged or not a PDF)");
}

/** Parses "1-3,5" into sorted unique page numbers; null means every page. */
export function parsePageSelection(selection: string, pageCount: number): { ok: true; pages: number[] } | { ok: false; issue: string } {
  const pages = new Set<number>();
  for (const part of selection.split(",")) {
    const match = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(part);
    if (!match) return { ok: false, issue: "must be page numbers and ranges like '1-3,5'" };
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1 || last < first) return { ok: false, issue: `range '${part.trim()}' must start at 1 or later and not run backwards` };
    if (last > pageCount) return { ok: false, issue: `must be between 1 and ${pageCount} (the document has ${pageCount} page${pageCount === 1 ? "" : "s"})` };
    for (let page = first; page <= last; page++) pages.add(page);
  }
  return { ok: true, pages: [...pages].sort((a, b) => a - b) };
}
