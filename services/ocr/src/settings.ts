import { integerSetting, type Env } from "@apiplat/config";
import { availableParallelism } from "node:os";

/** The service's own settings, read from the environment once by the manifest. */
export interface OcrSettings {
  /** Folder holding `<code>.traineddata` files (Debian's tesseract-ocr-<lang> packages install here). */
  langPath: string;
  /** Tesseract worker threads; each recognises one page at a time. */
  poolSize: number;
  /** Jobs waiting for a worker before new ones are refused with 503. */
  maxQueue: number;
  maxImageBytes: number;
  maxPixels: number;
  /** Pages above this many pixels are read by a worker that is replaced afterwards (its heap never shrinks). */
  recycleAbovePixels: number;
  maxPages: number;
  /** Processing time per request, not counting the wait for a free worker. */
  timeoutMs: number;
  /** Time to download an image given by URL. */
  fetchTimeoutMs: number;
  defaultLanguage: string;
  /** Languages the workers load at start-up. */
  warmLanguages: string;
}

export const DEFAULT_SETTINGS: OcrSettings = {
  langPath: "/usr/share/tesseract-ocr/5/tessdata",
  poolSize: Math.min(2, availableParallelism()),
  maxQueue: 16,
  maxImageBytes: 20 * 1024 * 1024,
  maxPixels: 40_000_000,
  recycleAbovePixels: 12_000_000,
  maxPages: 10,
  timeoutMs: 60_000,
  fetchTimeoutMs: 15_000,
  defaultLanguage: "eng",
  warmLanguages: "eng",
};

export function settingsFromEnv(env: Env): OcrSettings {
  return {
    langPath: env.OCR_LANG_PATH || DEFAULT_SETTINGS.langPath,
    poolSize: integerSetting(env, "OCR_POOL_SIZE", DEFAULT_SETTINGS.poolSize, 1),
    maxQueue: integerSetting(env, "OCR_MAX_QUEUE", DEFAULT_SETTINGS.maxQueue, 1),
    maxImageBytes: integerSetting(env, "OCR_MAX_IMAGE_BYTES", DEFAULT_SETTINGS.maxImageBytes, 1),
    maxPixels: integerSetting(env, "OCR_MAX_PIXELS", DEFAULT_SETTINGS.maxPixels, 1),
    recycleAbovePixels: integerSetting(env, "OCR_RECYCLE_ABOVE_PIXELS", DEFAULT_SETTINGS.recycleAbovePixels, 1),
    maxPages: integerSetting(env, "OCR_MAX_PAGES", DEFAULT_SETTINGS.maxPages, 1),
    timeoutMs: integerSetting(env, "OCR_TIMEOUT_MS", DEFAULT_SETTINGS.timeoutMs, 1),
    fetchTimeoutMs: integerSetting(env, "OCR_FETCH_TIMEOUT_MS", DEFAULT_SETTINGS.fetchTimeoutMs, 1),
    defaultLanguage: env.OCR_DEFAULT_LANGUAGE || DEFAULT_SETTINGS.defaultLanguage,
    warmLanguages: env.OCR_WARM_LANGUAGES ?? DEFAULT_SETTINGS.warmLanguages,
  };
}
