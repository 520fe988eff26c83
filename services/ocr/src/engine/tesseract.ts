import sharp from "sharp";
import { createWorker, OEM, type Worker as TesseractWorker } from "tesseract.js";
import { access } from "node:fs/promises";
import { join } from "node:path";
import type { Worker as ThreadWorker } from "node:worker_threads";
import type { PixelRect } from "../domain/geometry.js";
import { toPgm, type GrayImage } from "../domain/gray-image.js";
import type { EnginePage } from "../domain/layout.js";
import type { OrientationGuess, QuarterTurn } from "../domain/orientation.js";
import type { OcrEngine } from "./pool.js";

interface RecognizeOptions {
  psm: number;
  /** Resolution hint for Tesseract's size heuristics (images carry none once decoded). */
  dpi: number;
  /** Also build the block/line/word tree with boxes (costs a few percent more). */
  structured: boolean;
  /** Read only this part of the image (boxes are then relative to it). */
  region?: PixelRect;
}

interface RecognizeOutput {
  page: EnginePage;
}

/**
 * One Tesseract (WebAssembly) worker thread. Language data is read from a local folder only: without `langPath`
 * tesseract.js would fetch it from a CDN.
 */
export class TesseractEngine implements OcrEngine {
  /** Rejects when the worker thread dies (a WebAssembly abort, out of memory), so that its job fails at once. */
  private readonly died: Promise<never>;
  /** The orientation detector: a second thread, started on first use (see detectOrientation). */
  private osd: Promise<{ worker: TesseractWorker; died: Promise<never> }> | null = null;

  private constructor(
    private readonly worker: TesseractWorker,
    private readonly langPath: string,
  ) {
    this.died = watchThread(worker);
  }

  /**
   * Starts a worker with `languages` loaded. tesseract.js never settles its promise when language data fails to
   * load, so the data files are checked first, load errors are caught through its error handler, and start-up is
   * bounded in time.
   */
  static async create(languages: string, langPath: string, startTimeoutMs = 60_000): Promise<TesseractEngine> {
    await assertLanguageData(languages, langPath);
    return new TesseractEngine(await startWorker(languages, OEM.LSTM_ONLY, { langPath }, startTimeoutMs), langPath);
  }

  async setLanguages(languages: string): Promise<void> {
    await assertLanguageData(languages, this.langPath);
    await Promise.race([this.worker.reinitialize(languages, OEM.LSTM_ONLY), this.died]).catch((error) => {
      throw asError(error, `could not load language data for '${languages}'`);
    });
  }

  async recognize(image: GrayImage, options: RecognizeOptions): Promise<RecognizeOutput> {
    await Promise.race([
      this.worker.setParameters({
        tessedit_pageseg_mode: String(options.psm) as never,
        user_defined_dpi: String(options.dpi),
        preserve_interword_spaces: "0",
      }),
      this.died,
    ]).catch((error) => {
      throw asError(error, "could not set recognition parameters");
    });
    const output = { text: true, blocks: options.structured };
    const result = await Promise.race([this.worker.recognize(toPgm(image, options.region), {}, output), this.died]).catch((error) => {
      throw asError(error, "recognition failed");
    });
    return { page: result.data as unknown as EnginePage };
  }

  /**
   * Tesseract's orientation and script detection (OSD) on the image, or on a part of it: the clockwise turn that
   * makes the text upright, with Tesseract's confidence (the margin between the best orientation's score and the
   * next one's). Null when the page holds too few characters to judge. OSD needs the legacy engine and the `osd`
   * data (Debian tesseract-ocr-osd): it runs in a thread of its own, started with the build that has that engine,
   * while recognition keeps the LSTM-only build.
   */
  async detectOrientation(image: GrayImage, options: { dpi: number; region?: PixelRect }): Promise<OrientationGuess | null> {
    const osd = await this.orientationWorker();
    const region = options.region ?? { left: 0, top: 0, width: image.width, height: image.height };
    // A PNG that carries its resolution: OSD reads the resolution from the image alone (a PGM has none, and Tesseract
    // then prints a warning on every page). Stored uncompressed, it costs little to write and to read.
    const png = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 1 } })
      .extract(region)
      .withMetadata({ density: options.dpi })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const result = await Promise.race([osd.worker.detect(png), osd.died]).catch((error) => {
      throw asError(error, "orientation detection failed");
    });
    const { orientation_degrees: degrees, orientation_confidence: confidence, script } = result.data;
    if (degrees === null || confidence === null || ![0, 90, 180, 270].includes(degrees)) return null;
    return { turn: degrees as QuarterTurn, confidence, script };
  }

  /** Starts the orientation thread ahead of the first page that needs it (it takes about a second to load). */
  async prepareOrientation(): Promise<void> {
    await this.orientationWorker();
  }

  async terminate(): Promise<void> {
    const osd = this.osd;
    this.osd = null;
    await Promise.all([
      this.worker.terminate(),
      osd?.then(
        ({ worker }) => worker.terminate(),
        () => {},
      ),
    ]);
  }

  private orientationWorker(): Promise<{ worker: TesseractWorker; died: Promise<never> }> {
    if (this.osd === null) {
      const starting = (async () => {
        await assertLanguageData(OSD_DATA, this.langPath);
        const worker = await startWorker(OSD_DATA, OEM.TESSERACT_ONLY, { langPath: this.langPath, legacyCore: true, legacyLang: true });
        return { worker, died: watchThread(worker) };
      })();
      // A failed start is retried on the next page rather than remembered.
      starting.catch(() => {
        if (this.osd === starting) this.osd = null;
      });
      this.osd = starting;
    }
    return this.osd;
  }
}

/** The data file of Tesseract's orientation and script detection (Debian tesseract-ocr-osd). */
const OSD_DATA = "osd";

/**
 * Starts a tesseract.js worker. tesseract.js never settles its promise when language data fails to load, so load
 * errors are caught through its error handler and start-up is bounded in time.
 */
async function startWorker(
  languages: string,
  oem: OEM,
  options: { langPath: string; legacyCore?: boolean; legacyLang?: boolean },
  startTimeoutMs = 60_000,
): Promise<TesseractWorker> {
  let starting = true;
  let failStart: (error: Error) => void = () => {};
  const startFailed = new Promise<never>((_, reject) => {
    failStart = reject;
  });
  const timer = setTimeout(() => failStart(new Error(`the OCR worker did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
  const pending = createWorker(languages, oem, {
    ...options,
    gzip: false,
    cacheMethod: "none",
    errorHandler: (error: unknown) => {
      // After start-up, failures reject the job's own promise; this handler only stops tesseract.js rethrowing them.
      if (starting) failStart(new Error(`the OCR worker could not load '${languages}': ${String(error)}`));
    },
  });
  try {
    return await Promise.race([pending, startFailed]);
  } catch (error) {
    // A worker that comes up after all is not leaked.
    pending.then(
      (worker) => worker.terminate(),
      () => {},
    );
    throw error;
  } finally {
    starting = false;
    clearTimeout(timer);
  }
}

/** A promise that rejects when the worker's thread dies, so that a job on it fails at once instead of hanging. */
function watchThread(worker: TesseractWorker): Promise<never> {
  const thread = (worker as unknown as { worker: ThreadWorker | null }).worker;
  let fail: (error: Error) => void = () => {};
  const died = new Promise<never>((_, reject) => {
    fail = reject;
  });
  died.catch(() => {});
  if (!thread) return died;
  // An unhandled 'error' on a worker thread would take down the whole process.
  thread.on("error", (error) => fail(error instanceof Error ? error : new Error(String(error))));
  thread.on("exit", (code) => fail(new Error(`the OCR worker thread exited (code ${code})`)));
  // tesseract.js's message handler throws (an uncaught exception in the main thread) when a failed job is also
  // answered as done, as happens with unreadable language data: contain it and retire this worker instead.
  for (const listener of thread.listeners("message")) {
    thread.off("message", listener as (...args: unknown[]) => void);
    thread.on("message", (...args: unknown[]) => {
      try {
        (listener as (...args: unknown[]) => void)(...args);
      } catch (error) {
        fail(new Error(`the OCR worker failed: ${error instanceof Error ? error.message : String(error)}`));
      }
    });
  }
  return died;
}

async function assertLanguageData(languages: string, langPath: string): Promise<void> {
  for (const code of languages.split("+")) {
    const file = join(langPath, `${code}.traineddata`);
    await access(file).catch(() => {
      throw new Error(`language data missing: ${file}`);
    });
  }
}

/** tesseract.js rejects with plain strings; the rest of the service expects Error objects. */
function asError(error: unknown, context: string): Error {
  return error instanceof Error ? error : new Error(`${context}: ${String(error)}`);
}
