import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { decodeBmp, readBmpSize, BmpError } from "../domain/bmp.js";
import { InputLimitError, InvalidOptionError, UnreadableInputError, UnsupportedFormatError } from "../domain/errors.js";
import { sniffFormat, type InputFormat } from "../domain/formats.js";
import { grayFromPipeline, type GrayImage } from "../domain/gray-image.js";
import { dpiWithinPixelLimit, parsePageSelection, readPdfPageCount, readPdfPageSizes, renderPdfPage } from "./pdf.js";

interface DocumentLimits {
  maxPixels: number;
  maxPages: number;
  toolTimeoutMs: number;
}

interface DocumentOptions {
  /** "1-3,5"; every page when absent. */
  pages?: string;
  /** Resolution PDF pages are rendered at. */
  dpi: number;
}

interface RenderedPage {
  pageNumber: number;
  image: GrayImage;
  /** The resolution a PDF page was rendered at; null for images. */
  dpi: number | null;
}

/** An input split into pages that are decoded one at a time, so a long document never sits in memory whole. */
export interface PageSource {
  format: InputFormat;
  pageCount: number;
  selectedPages: number[];
  render(pageNumber: number): Promise<RenderedPage>;
  close(): Promise<void>;
}

export async function openDocument(bytes: Buffer, options: DocumentOptions, limits: DocumentLimits): Promise<PageSource> {
  const format = sniffFormat(bytes);
  if (format === null) {
    throw new UnsupportedFormatError("the input is not a PNG, JPEG, TIFF, WebP, GIF, BMP or PDF file");
  }
  if (format === "pdf") return openPdf(bytes, options, limits);
  if (format === "bmp") return openBmp(bytes, options, limits);
  return openRasterImage(bytes, format, options, limits);
}

function selectPages(selection: string | undefined, pageCount: number, maxPages: number): number[] {
  let pages: number[];
  if (selection === undefined) {
    pages = Array.from({ length: pageCount }, (_, i) => i + 1);
  } else {
    const parsed = parsePageSelection(selection, pageCount);
    if (!parsed.ok) throw new InvalidOptionError("pages", parsed.issue);
    pages = parsed.pages;
  }
  if (pages.length > maxPages) {
    const issue =
      selection === undefined
        ? `the document has ${pageCount} pages and at most ${maxPages} are read per request; choose them with 'pages', e.g. '1-${maxPages}'`
        : `selects ${pages.length} pages; at most ${maxPages} are read per request`;
    throw new InputLimitError("pages", issue);
  }
  return pages;
}

function checkPixels(width: number, height: number, maxPixels: number): void {
  if (width * height > maxPixels) {
    throw new InputLimitError(
      "image",
      `is ${width}x${height} = ${(width * height).toLocaleString("en-US")} pixels; at most ${maxPixels.toLocaleString("en-US")} pixels are accepted`,
    );
  }
}

async function openPdf(bytes: Buffer, options: DocumentOptions, limits: DocumentLimits): Promise<PageSource> {
  const directory = await mkdtemp(join(tmpdir(), "ocr-pdf-"));
  const file = join(directory, "input.pdf");
  const close = () => rm(directory, { recursive: true, force: true });
  try {
    await writeFile(file, bytes);
    const pageCount = await readPdfPageCount(file, limits.toolTimeoutMs);
    const selectedPages = selectPages(options.pages, pageCount, limits.maxPages);
    // Only the selected pages are measured: a document of many thousand pages costs no more than a short one.
    const sizes = await readPdfPageSizes(file, selectedPages[0], selectedPages[selectedPages.length - 1], limits.toolTimeoutMs);
    return {
      format: "pdf",
      pageCount,
      selectedPages,
      async render(pageNumber) {
        const size = sizes.get(pageNumber);
        if (!size) throw new UnreadableInputError(`page ${pageNumber} of the PDF has no readable size`);
        const dpi = dpiWithinPixelLimit(size, options.dpi, limits.maxPixels);
        const image = await renderPdfPage(file, pageNumber, dpi, limits.toolTimeoutMs, limits.maxPixels);
        return { pageNumber, image, dpi };
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

async function openBmp(bytes: Buffer, options: DocumentOptions, limits: DocumentLimits): Promise<PageSource> {
  let size: { width: number; height: number };
  try {
    size = readBmpSize(bytes);
  } catch (error) {
    throw new UnreadableInputError(error instanceof BmpError ? `the BMP could not be read: ${error.message}` : "the BMP could not be read");
  }
  checkPixels(size.width, size.height, limits.maxPixels);
  const selectedPages = selectPages(options.pages, 1, limits.maxPages);
  return {
    format: "bmp",
    pageCount: 1,
    selectedPages,
    async render(pageNumber) {
      let rgba;
      try {
        rgba = decodeBmp(bytes);
      } catch (error) {
        throw new UnreadableInputError(error instanceof BmpError ? `the BMP could not be read: ${error.message}` : "the BMP could not be read");
      }
      const pipeline = sharp(rgba.data, { raw: { width: rgba.width, height: rgba.height, channels: 4 } });
      return { pageNumber, image: await grayFromPipeline(pipeline), dpi: null };
    },
    close: async () => {},
  };
}

async function openRasterImage(bytes: Buffer, format: InputFormat, options: DocumentOptions, limits: DocumentLimits): Promise<PageSource> {
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new UnreadableInputError(`the ${format.toUpperCase()} file could not be read (damaged or truncated)`);
  }
  // Only TIFF pages are separate pages; the frames of an animated WebP or GIF are not (the first frame is read).
  const pageCount = format === "tiff" ? Math.max(1, metadata.pages ?? 1) : 1;
  const selectedPages = selectPages(options.pages, pageCount, limits.maxPages);
  return {
    format,
    pageCount,
    selectedPages,
    async render(pageNumber) {
      // Pages are decoded top to bottom once: sequential access decodes an A4 scan in about half the CPU time.
      const pipeline = sharp(bytes, { page: pageNumber - 1, limitInputPixels: false, failOn: "error", sequentialRead: true });
      const pageMetadata = await pipeline.metadata().catch(() => {
        throw new UnreadableInputError(`the ${format.toUpperCase()} file could not be read (damaged or truncated)`);
      });
      checkPixels(pageMetadata.width ?? 0, pageMetadata.height ?? 0, limits.maxPixels);
      try {
        return { pageNumber, image: await grayFromPipeline(pipeline.rotate()), dpi: null };
      } catch {
        throw new UnreadableInputError(`the ${format.toUpperCase()} file could not be decoded (damaged or truncated)`);
      }
    },
    close: async () => {},
  };
}
