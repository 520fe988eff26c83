/**
 * What every catalogue service's build does the same way: the first load of an empty catalogue (with /ready and a
 * 503 on its routes meanwhile), the answer cache, the live source's schedule (which clears the cache after each
 * round), and /sources. The service passes its sources and routes; see services/product-data/src/service.ts.
 */
import { serializeAsWritten, type ServiceContext } from "@apiplat/service-kit";
import type { FastifyInstance } from "fastify";
import { integerSetting } from "@apiplat/config";
import { answerCacheSettings, createAnswerCache } from "./answer-cache.js";
import { watchCatalogueVersion } from "./catalogue-version.js";
import { catalogueCoordination } from "./coordination.js";
import type { IngestionSource } from "./ingest.js";
import { createCatalogueLoader } from "./loader.js";
import { liveIngestionScheduler } from "./scheduler.js";
import { catalogueSourcesRoutes } from "./sources.js";

export interface CatalogueServiceOptions {
  /** The sources of the first load (live ones are left out of it). */
  sources: readonly IngestionSource<any, any>[];
  /** The tables whose emptiness means "never loaded". */
  tables: readonly string[];
  /** Off: the catalogue is used as it is (tests that ingest a subset themselves). */
  autoLoad: boolean;
  /**
   * The schedule of the live source among `sources`, when they hold one: fetched at start (after the first load) and
   * then every `intervalMs`; `logLine` says a round ended.
   */
  live?: { intervalMs: number; logLine: string };
  /** What GET /sources lists (default: `sources`); false when the service answers /sources itself. */
  listed?: readonly IngestionSource<any, any>[] | false;
  /**
   * Answers written by JSON.stringify, in the order the views build them (default), or false: by the response
   * schemas' compiled serializers, which keep only the fields a schema names (a service that answers stored JSON).
   */
  serializeAsWritten?: boolean;
  /** Registers the service's own routes in the catalogue's scope. */
  routes(scope: FastifyInstance): Promise<void>;
}

export async function buildCatalogueService(
  context: Pick<ServiceContext<unknown, unknown>, "app" | "platform" | "background" | "readiness">,
  options: CatalogueServiceOptions,
): Promise<void> {
  const { app, platform, background, readiness } = context;
  const { db, config, now } = platform;
  const answers = createAnswerCache(answerCacheSettings(config.env));
  const coordination = catalogueCoordination(db, config.databaseUrl, app.log);
  // Registered first, so stopped last: the loader and the live rounds release their locks on this session first.
  background({ name: "catalogue coordination", start() {}, stop: () => coordination.close() });
  const freshness = versionSettings(config.env);
  const version = watchCatalogueVersion({ db, coordination, ...freshness, onChange: () => answers.clear() });
  background(version.work);
  const loader = createCatalogueLoader({
    db,
    sources: options.sources,
    tables: options.tables,
    context: { datasetsDir: config.datasetsDir, now },
    log: app.log,
    enabled: options.autoLoad,
    coordination,
  });
  background(loader.work);
  readiness("catalogue", async () => loader.ready());
  const live = options.live;
  const liveSource = options.sources.find((source) => source.live);
  if (live && liveSource) {
    background(
      liveIngestionScheduler({
        db,
        source: liveSource,
        intervalMs: live.intervalMs,
        datasetsDir: config.datasetsDir,
        now,
        coordination,
        after: loader.loaded,
        onRun: (summary) => {
          // At once in this process; the other replicas hear of it through the version (a round that wrote nothing changes nothing).
          if (summary.status === "failed" || summary.inserted + summary.updated > 0) answers.clear();
          app.log.info({ ...summary, skipped: summary.skipped.slice(0, 3) }, live.logLine);
        },
      }),
    );
  }
  await app.register(async (scope) => {
    // Views build answers field by field, so the schema-compiled serializer has nothing to drop; JSON.stringify writes
    // a 50-result page in about three quarters of its time, as one string rather than a rope joined again on the way
    // out (bench/catalogue/serializers.ts).
    if (options.serializeAsWritten !== false) scope.setSerializerCompiler(serializeAsWritten);
    loader.guard(scope);
    answers.attach(scope, { current: version.current });
    await options.routes(scope);
    const listed = options.listed ?? options.sources;
    if (listed) await scope.register(catalogueSourcesRoutes, { db, sources: listed });
  });
}

/**
 * How soon a change made by another process reaches this one's answer cache: a notice does it in milliseconds, the
 * poll every CATALOGUE_VERSION_POLL_MS (default 1,000) when a notice is lost, and with the version unread for
 * CATALOGUE_STALE_AFTER_MS (default 3,000) the cache stops answering.
 */
export function versionSettings(env: Record<string, string | undefined>): { pollMs: number; staleAfterMs: number } {
  const pollMs = integerSetting(env, "CATALOGUE_VERSION_POLL_MS", 1_000, 100, 60_000);
  return { pollMs, staleAfterMs: integerSetting(env, "CATALOGUE_STALE_AFTER_MS", 3 * pollMs, pollMs, 300_000) };
}
