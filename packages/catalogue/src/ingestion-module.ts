import type { PlatformConfig } from "@apiplat/config";
import type { IngestionSource } from "./ingest.js";

/**
 * What a catalogue service exports beside its manifest, as the named export `ingestion` of its package
 * (`export const ingestion = defineIngestion({...})` in src/service.ts): the `ingest` command and the first-load
 * background work both read their sources from it.
 */
export interface ServiceIngestion {
  /** The service's sources, files first, then live ones; `options` are the command's extra flags (e.g. crawl seeds). */
  sources(context: { config: PlatformConfig; options: Record<string, string[]> }): IngestionSource<any, any>[];
}

export function defineIngestion(ingestion: ServiceIngestion): ServiceIngestion {
  return ingestion;
}
