/** The OCR service for benchmarks, with settings from OCR_* like production (see bench/lib/instance.ts). */
import { buildService } from "@apiplat/service-kit";
import ocr from "@apiplat/ocr";
import { startInstance as startServiceInstance } from "../lib/instance.js";

export const startInstance = () => startServiceInstance("ocr", (deps) => buildService(ocr, deps, { settings: ocr.settings!(process.env, deps.config) }));
