import { defineService } from "@apiplat/service-kit";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { Extractor } from "./engine/extract.js";
import { hasOrientationData, listInstalledLanguages } from "./engine/installed-languages.js";
import { EnginePool } from "./engine/pool.js";
import { TesseractEngine } from "./engine/tesseract.js";
import { extractRoutes } from "./routes/extract.js";
import { languageRoutes } from "./routes/languages.js";
import { base64LengthFor } from "./schemas.js";
import { settingsFromEnv, type OcrSettings } from "./settings.js";

/** JSON bodies carry the image as base64: a third larger than the image, plus the other fields. */
const JSON_OVERHEAD_BYTES = 64 * 1024;

export default defineService<OcrSettings>({
  name: "ocr",
  description: "Text, words with bounding boxes and tables from images and PDFs (Tesseract), in 100+ languages.",
  settings: settingsFromEnv,
  bodyLimit: (settings) => base64LengthFor(settings.maxImageBytes) + JSON_OVERHEAD_BYTES,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, background, readiness }) {
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
    const outbound = createOutboundClient({ allowCidrs: platform.config.outboundAllowCidrs });

    const installedLanguages = () => listInstalledLanguages(settings.langPath);
    const orientationDataInstalled = () => hasOrientationData(settings.langPath);
    readiness("language_data", async () => (await installedLanguages()).has(settings.defaultLanguage));
    // Orientation detection is on by default: without its data most requests would answer 503.
    readiness("orientation_data", orientationDataInstalled);
    await app.register(languageRoutes, { settings, installedLanguages });
    await app.register(extractRoutes, { settings, extractor, outbound, installedLanguages, orientationDataInstalled });

    background({
      name: "OCR workers",
      start() {
        if (!settings.warmLanguages) return;
        pool.warm(settings.warmLanguages).catch((error) => app.log.error({ err: error }, "could not start OCR workers ahead of time"));
      },
      stop: () => pool.close(),
    });
    background({ name: "outbound client", start() {}, stop: () => outbound.close() });
  },
});

/**
 * Workers start on the default language (checked by /ready) and then switch: tesseract.js crashes the process when
 * language data fails to load while a worker starts, but only fails the job when it fails in a running worker.
 */
async function startEngine(languages: string, settings: OcrSettings): Promise<TesseractEngine> {
  const engine = await TesseractEngine.create(settings.defaultLanguage, settings.langPath);
  // Pages are turned upright by default: the orientation thread starts with the engine (a failure shows on first use).
  if (await hasOrientationData(settings.langPath)) await engine.prepareOrientation().catch(() => {});
  if (languages === settings.defaultLanguage) return engine;
  try {
    await engine.setLanguages(languages);
    return engine;
  } catch (error) {
    await engine.terminate();
    throw error;
  }
}
