/** The PDF service for benchmarks, its pool sized as in production unless PDF_* says otherwise (see bench/lib/instance.ts). */
import { startInstance as startServiceInstance } from "../lib/instance.js";
import { buildApp } from "../../services/pdf-generation/src/app.js";
import { settingsFromEnv } from "../../services/pdf-generation/src/settings.js";

export const startInstance = () =>
  startServiceInstance("pdf-generation", (deps) => buildApp({ ...deps, settings: settingsFromEnv(process.env) }));
