/**
 * Fills an empty catalogue on the service's first start, in the background: the service listens at once, /ready
 * answers 503 until the load has finished, and the catalogue's routes answer 503 CATALOGUE_LOADING meanwhile (a
 * partial catalogue would give wrong counts). A catalogue that already holds rows is left as it is: re-loading is
 * the `ingest` command's job.
 */
import { errors } from "@apiplat/errors";
import type { Database } from "@apiplat/storage";
import type { FastifyInstance } from "fastify";
import { catalogueIsEmpty, runIngestions, type IngestContext, type IngestionSource, type IngestRunSummary } from "./ingest.js";

export interface CatalogueLoaderOptions {
  db: Database;
  /** The sources of the first load, in order (live sources are left out). */
  sources: readonly IngestionSource<any, any>[];
  /** The tables whose emptiness means "never loaded". */
  tables: readonly string[];
  context: IngestContext;
  log: { info(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Off: the catalogue is used as it is (tests that ingest a subset themselves). */
  enabled: boolean;
}

export interface CatalogueLoader {
  /** For `background(...)` in the manifest. */
  work: { name: string; start(): void; stop(): Promise<void> };
  /** For `readiness(...)`: false while the first load runs. */
  ready(): boolean;
  /** The summaries of the first load, once finished. */
  loaded(): Promise<IngestRunSummary[]>;
  /** An onRequest hook for the catalogue's routes: 503 while loading. */
  guard(app: FastifyInstance): void;
}

export function createCatalogueLoader(options: CatalogueLoaderOptions): CatalogueLoader {
  let loading = false;
  let stopping = false;
  let done: Promise<IngestRunSummary[]> = Promise.resolve([]);

  async function load(): Promise<IngestRunSummary[]> {
    if (!(await catalogueIsEmpty(options.db, options.tables))) return [];
    return runIngestions(options.db, options.sources.filter((s) => !s.live), {
      ...options.context,
      shouldStop: () => stopping,
      onRun: (summary) => options.log.info({ ...summary, skipped: summary.skipped.slice(0, 3) }, `catalogue: ${summary.source} loaded`),
    });
  }

  return {
    work: {
      name: "catalogue first load",
      start() {
        if (!options.enabled) return;
        loading = true;
        done = load()
          .catch((error: unknown) => {
            options.log.error({ err: error }, "catalogue: first load failed");
            return [];
          })
          .finally(() => {
            loading = false;
          });
      },
      async stop() {
        stopping = true;
        await done;
      },
    },
    ready: () => !loading,
    loaded: () => done,
    guard(app) {
      app.addHook("onRequest", async () => {
        if (loading) throw errors.unavailable("The catalogue is loading its datasets on first start; retry in a minute.");
      });
    },
  };
}
