import { openDocument, type PageSource } from "./document.js";
import { inkedRegion, toPageCoordinates } from "../domain/content-crop.js";
import { correctSkew, estimateSkewDegrees, MIN_CORRECTED_SKEW_DEGREES, rotateQuarterTurns } from "../domain/deskew.js";
import { OcrTimeoutError } from "../domain/errors.js";
import type { InputFormat } from "../domain/formats.js";
import type { PixelRect } from "../domain/geometry.js";
import type { GrayImage } from "../domain/gray-image.js";
import { cleanText, toBlocks, wordsInReadingOrder, type BlockOut, type EnginePage } from "../domain/layout.js";
import { toUnitConfidence } from "../domain/geometry.js";
import type { EnginePool, OcrEngine } from "./pool.js";
import type { OrientationGuess } from "../domain/orientation.js";
import type { Table } from "../domain/table-types.js";
import { findTables } from "../domain/tables.js";

export interface RecognizingEngine extends OcrEngine {
  /** With a region, only that part of the image is read, and boxes are relative to it. */
  recognize(image: GrayImage, options: { psm: number; dpi: number; structured: boolean; region?: PixelRect }): Promise<{ page: EnginePage }>;
  /** The clockwise turn that makes the page upright, with the detector's confidence; null when there is too little text. */
  detectOrientation(image: GrayImage, options: { dpi: number; region?: PixelRect }): Promise<OrientationGuess | null>;
}

interface ExtractionLimits {
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
  /** Detect each page's orientation (Tesseract OSD) and turn it upright before reading. */
  autoRotate: boolean;
  deskew: boolean;
  structured: boolean;
}

interface PageResult {
  page_number: number;
  width: number;
  height: number;
  dpi: number | null;
  rotation_degrees: number;
  orientation: OrientationReport | null;
  skew_degrees: number;
  text: string;
  confidence: number;
  word_count: number;
  blocks?: BlockOut[];
  tables?: Table[];
}

interface ExtractionResult {
  text: string;
  confidence: number;
  language: string;
  psm: number;
  format: InputFormat;
  page_count: number;
  pages_processed: number;
  pages: PageResult[];
  timing: { total_ms: number; queue_ms: number; decode_ms: number; orientation_ms: number; recognize_ms: number };
}

/** What orientation detection found and did on one page. */
interface OrientationReport {
  /** The clockwise turn applied after detection, on top of `rotate`. */
  rotation_degrees: number;
  /** Tesseract's orientation confidence (the margin of the best orientation over the next); null: too little text. */
  osd_confidence: number | null;
  /**
   * "osd": the detector decided; "recognition": the detector was unsure, the page was read both ways and the reading
   * with the higher confidence kept; "none": too little text to judge, the page was read as given.
   */
  decided_by: "osd" | "recognition" | "none";
}

/**
 * From this confidence on, the detector's turn is applied without a second reading. It is the margin Tesseract itself
 * requires before it turns a page in its own orientation-aware layout analysis (`min_orientation_margin`).
 */
const OSD_SURE_CONFIDENCE = 7;
/** How much more confident (0-1) the other reading of an unsure page must be to overrule the detector's proposal. */
const CLEARLY_MORE_CONFIDENT = 0.05;
/** Below this page confidence (0-1), a page the detector was unsure about is also read turned by 180 degrees. */
const AUTO_ROTATE_BELOW_CONFIDENCE = 0.7;

/** Images carry no reliable resolution once decoded; 300 dpi is what Tesseract is tuned for. */
const DEFAULT_IMAGE_DPI = 300;

export class Extractor<E extends RecognizingEngine> {
  constructor(
    private readonly pool: EnginePool<E>,
    private readonly limits: ExtractionLimits,
  ) {}

  async extract(request: ExtractionRequest): Promise<ExtractionResult> {
    const started = Date.now();
    const clock: Clock = { queueMs: 0, decodeMs: 0, orientationMs: 0, recognizeMs: 0 };
    const remaining = () => {
      const left = this.limits.timeoutMs - (clock.decodeMs + clock.orientationMs + clock.recognizeMs);
      if (left <= 0) throw new OcrTimeoutError(this.limits.timeoutMs);
      return left;
    };
    const decodeStarted = Date.now();
    const source = await openDocument(
      request.bytes,
      { pages: request.pages, dpi: request.dpi },
      {
        maxPixels: this.limits.maxPixels,
        maxPages: this.limits.maxPages,
        toolTimeoutMs: this.limits.timeoutMs,
      },
    );
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
          orientation_ms: clock.orientationMs,
          recognize_ms: clock.recognizeMs,
        },
      };
    } finally {
      await source.close();
    }
  }

  private async extractPage(source: PageSource, pageNumber: number, request: ExtractionRequest, clock: Clock, remaining: () => number): Promise<PageResult> {
    remaining();
    const decodeStarted = Date.now();
    const rendered = await source.render(pageNumber);
    const given = request.rotate === 0 ? rendered.image : await rotateQuarterTurns(rendered.image, request.rotate);
    clock.decodeMs += Date.now() - decodeStarted;
    const dpi = rendered.dpi ?? DEFAULT_IMAGE_DPI;
    const read = (turn: number) => this.readTurned(given, turn, { request, dpi, clock, remaining });
    const meta = { pageNumber, dpi: rendered.dpi, structured: request.structured };
    if (!request.autoRotate) {
      const reading = await read(0);
      return pageResult(reading, { ...meta, rotation: request.rotate, orientation: null });
    }

    const guess = await this.detectOrientation(given, { request, dpi, clock, remaining });
    const sure = guess !== null && guess.confidence >= OSD_SURE_CONFIDENCE;
    let turn: number = guess?.turn ?? 0;
    let reading = await read(turn);
    let decidedBy: OrientationReport["decided_by"] = guess === null ? "none" : "osd";
    // An unsure detector is checked by reading the page the other way: as given when it proposed a turn, upside
    // down when it proposed none (or saw too little text) and the page reads poorly. Its proposal stands unless the
    // other reading is clearly more confident (Tesseract also reads many pages turned by 90 degrees as they are).
    const alternative = sure ? null : turn !== 0 ? 0 : toUnitConfidence(reading.page.confidence) < AUTO_ROTATE_BELOW_CONFIDENCE ? 180 : null;
    if (alternative !== null) {
      const second = await read(alternative);
      decidedBy = "recognition";
      if (toUnitConfidence(second.page.confidence) > toUnitConfidence(reading.page.confidence) + CLEARLY_MORE_CONFIDENT) {
        [turn, reading] = [alternative, second];
      }
    }
    const orientation: OrientationReport = {
      rotation_degrees: turn,
      osd_confidence: guess === null ? null : Math.round(guess.confidence * 100) / 100,
      decided_by: decidedBy,
    };
    return pageResult(reading, { ...meta, rotation: (request.rotate + turn) % 360, orientation });
  }

  /** Orientation detection on the inked part of the page, in a worker of the pool. */
  private async detectOrientation(image: GrayImage, context: ReadContext): Promise<OrientationGuess | null> {
    const started = Date.now();
    const region = inkedRegion(image) ?? undefined;
    const { result, queuedMs } = await this.pool.run(context.request.language, context.remaining(), (engine) =>
      engine.detectOrientation(image, { dpi: context.dpi, region }),
    );
    context.clock.queueMs += queuedMs;
    context.clock.orientationMs += Date.now() - started - queuedMs;
    return result;
  }

  /** The page turned clockwise by `turn`, deskewed, and read. */
  private async readTurned(given: GrayImage, turn: number, context: ReadContext): Promise<Reading> {
    const decodeStarted = Date.now();
    const turned = turn === 0 ? given : await rotateQuarterTurns(given, turn);
    const { image, skew } = await straighten(turned, context.request.deskew);
    context.clock.decodeMs += Date.now() - decodeStarted;
    // Tesseract's thresholding and layout passes scale with the pixels it is given, and margins are most of a page.
    const region = inkedRegion(image) ?? undefined;
    const read = region ?? image;
    const options = { psm: context.request.psm, dpi: context.dpi, structured: context.request.structured, region };
    const started = Date.now();
    const { result, queuedMs } = await this.pool.run(context.request.language, context.remaining(), (engine) => engine.recognize(image, options), {
      retireAfter: read.width * read.height > this.limits.recycleAbovePixels,
    });
    context.clock.queueMs += queuedMs;
    context.clock.recognizeMs += Date.now() - started - queuedMs;
    return { image, skew, page: region ? toPageCoordinates(result.page, region) : result.page };
  }
}

interface ReadContext {
  request: ExtractionRequest;
  dpi: number;
  clock: Clock;
  remaining: () => number;
}

/** One reading of a page: the image read (after turns and deskew), the skew corrected, and Tesseract's result. */
interface Reading {
  image: GrayImage;
  skew: number;
  page: EnginePage;
}

interface Clock {
  queueMs: number;
  decodeMs: number;
  orientationMs: number;
  recognizeMs: number;
}

/** Skew measured and straightened, after any quarter turn (turns change which way lines run). */
async function straighten(image: GrayImage, deskew: boolean): Promise<{ image: GrayImage; skew: number }> {
  if (!deskew) return { image, skew: 0 };
  const skew = estimateSkewDegrees(image);
  if (Math.abs(skew) < MIN_CORRECTED_SKEW_DEGREES) return { image, skew: 0 };
  return { image: await correctSkew(image, skew), skew };
}

function pageResult(
  { page, image, skew }: Reading,
  meta: { pageNumber: number; dpi: number | null; rotation: number; orientation: OrientationReport | null; structured: boolean },
): PageResult {
  const words = meta.structured ? wordsInReadingOrder(page) : [];
  const wordCount = meta.structured ? words.length : countTextWords(page.text);
  const result: PageResult = {
    page_number: meta.pageNumber,
    width: image.width,
    height: image.height,
    dpi: meta.dpi,
    rotation_degrees: meta.rotation,
    orientation: meta.orientation,
    skew_degrees: skew,
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
