/**
 * Fills an empty catalogue on the service's first start, in the background: the service listens at once, /ready
 * answers 503 until the load has finished, and the catalogue's routes answer 503 CATALOGUE_LOADING meanwhile (a
 * partial catalogue would give wrong counts). A catalogue that already holds rows is left as it is: re-loading is
 * the `ingest` command's job.
 *
 * With several replicas the load runs in one of them: each asks for the catalogue's "first load" lock, the first to
 * get it loads, and the others wait for the lock (not ready meanwhile), then find the catalogue loaded. When the
 * loading replica dies, its lock goes with its session and the next one to get it loads again (upserts make the
 * rows already written cost nothing): a run left 'running' by a dead process marks the catalogue as not loaded.
 */
import { errors } from "@apiplat/errors";
import type { Database } from "@apiplat/storage";
import type { FastifyInstance } from "fastify";
import type { CatalogueCoordination } from "./coordination.js";
import { catalogueIsEmpty, closeAbandonedRuns, runIngestions, type IngestContext, type IngestionSource, type IngestRunSummary } from "./ingest.js";

const FIRST_LOAD_LOCK = "first load";

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
  coordination: CatalogueCoordination;
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

  const { db, coordination } = options;
  const fileSources = options.sources.filter((s) => !s.live);

  /** Whether a process died while loading one of the files (its runs are closed as abandoned here). */
  async function interrupted(): Promise<boolean> {
    let abandoned = 0;
    for (const source of fileSources) {
      const closed = await coordination.tryExclusive(source.name, () => closeAbandonedRuns(db, source.name, options.context.now()));
      if (closed.held) abandoned += closed.value;
    }
    return abandoned > 0;
  }

  async function load(): Promise<IngestRunSummary[]> {
    const first = await coordination.exclusive(
      FIRST_LOAD_LOCK,
      async () => {
        if (!(await catalogueIsEmpty(db, options.tables)) && !(await interrupted())) return [];
        return runIngestions(db, fileSources, {
          ...options.context,
          coordination,
          shouldStop: () => stopping,
          onRun: (summary) => options.log.info({ ...summary, skipped: summary.skipped.slice(0, 3) }, `catalogue: ${summary.source} loaded`),
        });
      },
      () => stopping,
    );
    return first.held ? first.value : [];
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
