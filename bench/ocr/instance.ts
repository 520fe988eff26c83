/** The OCR service for benchmarks, with settings from OCR_* like production (see bench/lib/instance.ts). */
import { startInstance as startServiceInstance } from "../lib/instance.js";
import { buildApp } from "../../services/ocr/src/app.js";
import { settingsFromEnv } from "../../services/ocr/src/settings.js";

export const startInstance = () => startServiceInstance("ocr", (deps) => buildApp({ ...deps, settings: settingsFromEnv(process.env) }));
