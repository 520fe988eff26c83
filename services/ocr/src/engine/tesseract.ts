import { createWorker, OEM, type Worker as TesseractWorker } from "tesseract.js";
import { access } from "node:fs/promises";
import { join } from "node:path";
import type { Worker as ThreadWorker } from "node:worker_threads";
import type { PixelRect } from "../domain/geometry.js";
import { toPgm, type GrayImage } from "../domain/gray-image.js";
import type { EnginePage } from "../domain/layout.js";
import type { OcrEngine } from "./pool.js";

export interface RecognizeOptions {
  psm: number;
  /** Resolution hint for Tesseract's size heuristics (images carry none once decoded). */
  dpi: number;
  /** Also build the block/line/word tree with boxes (costs a few percent more). */
  structured: boolean;
  /** Read only this part of the image (boxes are then relative to it). */
  region?: PixelRect;
}

export interface RecognizeOutput {
  page: EnginePage;
}

/**
 * One Tesseract (WebAssembly) worker thread. Language data is read from a local folder only: without `langPath`
 * tesseract.js would fetch it from a CDN.
 */
export class TesseractEngine implements OcrEngine {
  /** Rejects when the worker thread dies (a WebAssembly abort, out of memory), so that its job fails at once. */
  private readonly died: Promise<never>;

  private constructor(private readonly worker: TesseractWorker, private readonly langPath: string) {
    const thread = (worker as unknown as { worker: ThreadWorker | null }).worker;
    let fail: (error: Error) => void = () => {};
    this.died = new Promise<never>((_, reject) => {
      fail = reject;
    });
    this.died.catch(() => {});
    if (!thread) return;
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
  }

  /**
   * Starts a worker with `languages` loaded. tesseract.js never settles its promise when language data fails to
   * load, so the data files are checked first, load errors are caught through its error handler, and start-up is
   * bounded in time.
   */
  static async create(languages: string, langPath: string, startTimeoutMs = 60_000): Promise<TesseractEngine> {
    await assertLanguageData(languages, langPath);
    let starting = true;
    let failStart: (error: Error) => void = () => {};
    const startFailed = new Promise<never>((_, reject) => {
      failStart = reject;
    });
    const timer = setTimeout(() => failStart(new Error(`the OCR worker did not start within ${startTimeoutMs} ms`)), startTimeoutMs);
    const pending = createWorker(languages, OEM.LSTM_ONLY, {
      langPath,
      gzip: false,
      cacheMethod: "none",
      errorHandler: (error: unknown) => {
        // After start-up, failures reject the job's own promise; this handler only stops tesseract.js rethrowing them.
        if (starting) failStart(new Error(`the OCR worker could not load '${languages}': ${String(error)}`));
      },
    });
    try {
      return new TesseractEngine(await Promise.race([pending, startFailed]), langPath);
    } catch (error) {
      // A worker that comes up after all is not leaked.
      pending.then((worker) => worker.terminate(), () => {});
      throw error;
    } finally {
      starting = false;
      clearTimeout(timer);
    }
  }

  async setLanguages(languages: string): Promise<void> {
    await assertLanguageData(languages, this.langPath);
    await Promise.race([this.worker.reinitialize(languages, OEM.LSTM_ONLY), this.died]).catch((error) => {
      throw asError(error, `could not load language data for '${languages}'`);
    });
  }

  async recognize(image: GrayImage, options: RecognizeOptions): Promise<RecognizeOutput> {
    await Promise.race([this.worker.setParameters({
      tessedit_pageseg_mode: String(options.psm) as never,
      user_defined_dpi: String(options.dpi),
      preserve_interword_spaces: "0",
    }), this.died]).catch((error) => {
      throw asError(error, "could not set recognition parameters");
    });
    const output = { text: true, blocks: options.structured };
    const result = await Promise.race([this.worker.recognize(toPgm(image, options.region), {}, output), this.died]).catch((error) => {
      throw asError(error, "recognition failed");
    });
    return { page: result.data as unknown as EnginePage };
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
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
