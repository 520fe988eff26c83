import { createServiceApp, type PlatformDeps, type ServiceApp } from "@apiplat/service-kit";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { EnginePool } from "./domain/pool.js";
import { Extractor } from "./domain/extract.js";
import { listInstalledLanguages } from "./domain/languages.js";
import { TesseractEngine } from "./engine/tesseract.js";
import { extractRoutes } from "./routes/extract.js";
import { languageRoutes } from "./routes/languages.js";
import { base64LengthFor } from "./schemas.js";
import { DEFAULT_SETTINGS, settingsFromEnv, type OcrSettings } from "./settings.js";

export interface OcrDeps extends PlatformDeps {
  settings?: Partial<OcrSettings>;
}

/** JSON bodies carry the image as base64: a third larger than the image, plus the other fields. */
const JSON_OVERHEAD_BYTES = 64 * 1024;

export async function buildApp(deps: OcrDeps): Promise<ServiceApp> {
  const settings: OcrSettings = { ...DEFAULT_SETTINGS, ...deps.settings };
  const pool = new EnginePool<TesseractEngine>({
    size: settings.poolSize,
    maxQueue: settings.maxQueue,
    createEngine: (languages) => startEngine(languages, settings),
    onEngineReplaced: (reason) => app.log.info({ reason }, "OCR worker retired; a fresh one starts on the next job"),
  });
  const extractor = new Extractor(pool, {
    maxPixels: settings.maxPixels,
    maxPages: settings.maxPages,
    timeoutMs: settings.timeoutMs,
    recycleAbovePixels: settings.recycleAbovePixels,
  });
  const outbound = createOutboundClient({ allowCidrs: deps.config.outboundAllowCidrs });

  const app = await createServiceApp({
    service: "ocr",
    deps,
    bodyLimit: base64LengthFor(settings.maxImageBytes) + JSON_OVERHEAD_BYTES,
    description: "Text, words with bounding boxes and tables from images and PDFs (Tesseract), in 100+ languages.",
    readiness: {
      language_data: async () => (await listInstalledLanguages(settings.langPath)).has(settings.defaultLanguage),
    },
  });
  app.addHook("onClose", async () => {
    await pool.close();
    await outbound.close();
  });
  await app.register(languageRoutes, { settings });
  await app.register(extractRoutes, { settings, extractor, outbound });

  if (settings.warmLanguages) {
    pool.warm(settings.warmLanguages).catch((error) => app.log.error({ err: error }, "could not start OCR workers ahead of time"));
  }
  return app;
}

/**
 * Workers start on the default language (checked by /ready) and then switch: tesseract.js crashes the process when
 * language data fails to load while a worker starts, but only fails the job when it fails in a running worker.
 */
async function startEngine(languages: string, settings: OcrSettings): Promise<TesseractEngine> {
  const engine = await TesseractEngine.create(settings.defaultLanguage, settings.langPath);
  if (languages === settings.defaultLanguage) return engine;
  try {
    await engine.setLanguages(languages);
    return engine;
  } catch (error) {
    await engine.terminate();
    throw error;
  }
}

export const service = {
  name: "ocr" as const,
  build: (platform: PlatformDeps) => buildApp({ ...platform, settings: settingsFromEnv(platform.config.env) }),
};
