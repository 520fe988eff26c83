import { openDocument, type PageSource, type RenderedPage } from "./document.js";
import { inkedRegion, toPageCoordinates } from "../domain/content-crop.js";
import { correctSkew, estimateSkewDegrees, MIN_CORRECTED_SKEW_DEGREES, rotateQuarterTurns } from "../domain/deskew.js";
import { OcrTimeoutError } from "../domain/errors.js";
import type { InputFormat } from "../domain/formats.js";
import type { PixelRect } from "../domain/geometry.js";
import type { GrayImage } from "../domain/gray-image.js";
import { cleanText, toBlocks, wordsInReadingOrder, type BlockOut, type EnginePage } from "../domain/layout.js";
import { toUnitConfidence } from "../domain/geometry.js";
import type { EnginePool, OcrEngine } from "./pool.js";
import type { Table } from "../domain/table-types.js";
import { findTables } from "../domain/tables.js";

export interface RecognizingEngine extends OcrEngine {
  /** With a region, only that part of the image is read, and boxes are relative to it. */
  recognize(image: GrayImage, options: { psm: number; dpi: number; structured: boolean; region?: PixelRect }): Promise<{ page: EnginePage }>;
}

export interface ExtractionLimits {
  maxPixels: number;
  maxPages: number;
  /** Processing time per request (decoding, rendering, recognition); waiting for a free engine is not counted. */
  timeoutMs: number;
  /** A page larger than this many pixels is read by a worker that is then replaced, to give its memory back. */
  recycleAbovePixels: number;
}

export interface ExtractionRequest {
  bytes: Buffer;
  /** Installed codes joined by '+'. */
  language: string;
  psm: number;
  pages?: string;
  dpi: number;
  /** Clockwise quarter turns applied before reading: 0, 90, 180 or 270. */
  rotate: number;
  /** Read a page whose confidence is low once more upside down, and keep the better reading. */
  autoRotate: boolean;
  deskew: boolean;
  structured: boolean;
}

export interface PageResult {
  page_number: number;
  width: number;
  height: number;
  dpi: number | null;
  rotation_degrees: number;
  skew_degrees: number;
  text: string;
  confidence: number;
  word_count: number;
  blocks?: BlockOut[];
  tables?: Table[];
}

export interface ExtractionResult {
  text: string;
  confidence: number;
  language: string;
  psm: number;
  format: InputFormat;
  page_count: number;
  pages_processed: number;
  pages: PageResult[];
  timing: { total_ms: number; queue_ms: number; decode_ms: number; recognize_ms: number };
}

/** Below this page confidence (0-1), auto_rotate reads the page a second time turned by 180 degrees. */
export const AUTO_ROTATE_BELOW_CONFIDENCE = 0.7;

/** Images carry no reliable resolution once decoded; 300 dpi is what Tesseract is tuned for. */
const DEFAULT_IMAGE_DPI = 300;

export class Extractor<E extends RecognizingEngine> {
  constructor(private readonly pool: EnginePool<E>, private readonly limits: ExtractionLimits) {}

  async extract(request: ExtractionRequest): Promise<ExtractionResult> {
    const started = Date.now();
    const clock: Clock = { queueMs: 0, decodeMs: 0, recognizeMs: 0 };
    const remaining = () => {
      const left = this.limits.timeoutMs - (clock.decodeMs + clock.recognizeMs);
      if (left <= 0) throw new OcrTimeoutError(this.limits.timeoutMs);
      return left;
    };
    const decodeStarted = Date.now();
    const source = await openDocument(request.bytes, { pages: request.pages, dpi: request.dpi }, {
      maxPixels: this.limits.maxPixels,
      maxPages: this.limits.maxPages,
      toolTimeoutMs: this.limits.timeoutMs,
    });
    clock.decodeMs += Date.now() - decodeStarted;
    try {
      const pages: PageResult[] = [];
      for (const pageNumber of source.selectedPages) {
        pages.push(await this.extractPage(source, pageNumber, request, clock, remaining));
      }
      return {
        text: pages.map((page) => page.text).join("\n\n"),
        confidence: meanConfidence(pages),
        language: request.language,
        psm: request.psm,
        format: source.format,
        page_count: source.pageCount,
        pages_processed: pages.length,
        pages,
        timing: {
          total_ms: Date.now() - started,
          queue_ms: clock.queueMs,
          decode_ms: clock.decodeMs,
          recognize_ms: clock.recognizeMs,
        },
      };
    } finally {
      await source.close();
    }
  }

  private async extractPage(
    source: PageSource,
    pageNumber: number,
    request: ExtractionRequest,
    clock: Clock,
    remaining: () => number,
  ): Promise<PageResult> {
    remaining();
    const decodeStarted = Date.now();
    const rendered = await source.render(pageNumber);
    const prepared = await preparePage(rendered, request);
    clock.decodeMs += Date.now() - decodeStarted;

    // Tesseract's thresholding and layout passes scale with the pixels it is given, and margins are most of a page.
    const recognise = async (page: GrayImage): Promise<EnginePage> => {
      const region = inkedRegion(page) ?? undefined;
      const read = region ?? page;
      const options = { psm: request.psm, dpi: rendered.dpi ?? DEFAULT_IMAGE_DPI, structured: request.structured, region };
      const started = Date.now();
      const { result, queuedMs } = await this.pool.run(
        request.language,
        remaining(),
        (engine) => engine.recognize(page, options),
        { retireAfter: read.width * read.height > this.limits.recycleAbovePixels },
      );
      clock.queueMs += queuedMs;
      clock.recognizeMs += Date.now() - started - queuedMs;
      return region ? toPageCoordinates(result.page, region) : result.page;
    };
    let { image } = prepared;
    let page = await recognise(image);
    let rotation = request.rotate;
    if (request.autoRotate && toUnitConfidence(page.confidence) < AUTO_ROTATE_BELOW_CONFIDENCE) {
      const turnStarted = Date.now();
      const turned = await rotateQuarterTurns(image, 180);
      clock.decodeMs += Date.now() - turnStarted;
      const second = await recognise(turned);
      if (second.confidence > page.confidence) [image, page, rotation] = [turned, second, (rotation + 180) % 360];
    }
    return pageResult(page, image, { pageNumber, dpi: rendered.dpi, rotation, skew: prepared.skew, structured: request.structured });
  }
}

interface Clock {
  queueMs: number;
  decodeMs: number;
  recognizeMs: number;
}

/** Quarter turns first (they change which way lines run), then skew measured and straightened. */
async function preparePage(rendered: RenderedPage, request: ExtractionRequest): Promise<{ image: GrayImage; skew: number }> {
  const image = request.rotate === 0 ? rendered.image : await rotateQuarterTurns(rendered.image, request.rotate);
  if (!request.deskew) return { image, skew: 0 };
  const skew = estimateSkewDegrees(image);
  if (Math.abs(skew) < MIN_CORRECTED_SKEW_DEGREES) return { image, skew: 0 };
  return { image: await correctSkew(image, skew), skew };
}

function pageResult(
  page: EnginePage,
  image: GrayImage,
  meta: { pageNumber: number; dpi: number | null; rotation: number; skew: number; structured: boolean },
): PageResult {
  const words = meta.structured ? wordsInReadingOrder(page) : [];
  const wordCount = meta.structured ? words.length : countTextWords(page.text);
  const result: PageResult = {
    page_number: meta.pageNumber,
    width: image.width,
    height: image.height,
    dpi: meta.dpi,
    rotation_degrees: meta.rotation,
    skew_degrees: meta.skew,
    text: cleanText(page.text),
    confidence: wordCount === 0 ? 0 : toUnitConfidence(page.confidence),
    word_count: wordCount,
  };
  if (meta.structured) {
    result.blocks = toBlocks(page, image);
    result.tables = findTables(image, words);
  }
  return result;
}

/** Tesseract's text output separates every word it recognised by a space or a line break. */
function countTextWords(text: string): number {
  return text.split(/\s+/).filter((token) => token !== "").length;
}

function meanConfidence(pages: PageResult[]): number {
  const words = pages.reduce((sum, page) => sum + page.word_count, 0);
  if (words === 0) return 0;
  const weighted = pages.reduce((sum, page) => sum + page.confidence * page.word_count, 0);
  return Math.round((weighted / words) * 1000) / 1000;
}
