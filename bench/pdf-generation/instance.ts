/** The PDF service for benchmarks, its pool sized as in production unless PDF_* says otherwise (see bench/lib/instance.ts). */
import { buildService } from "@apiplat/service-kit";
import pdfGeneration from "@apiplat/pdf-generation";
import { startInstance as startServiceInstance } from "../lib/instance.js";

export const startInstance = () =>
  startServiceInstance("pdf-generation", (deps) => buildService(pdfGeneration, deps, { settings: pdfGeneration.settings!(process.env, deps.config) }));
