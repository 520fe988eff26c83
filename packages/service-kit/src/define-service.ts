import type { AppName, Env, PlatformConfig } from "@apiplat/config";
import { migrate, scopeToSchema, type Database } from "@apiplat/storage";
import { createServiceApp, type ServiceApp } from "./create-app.js";
import type { PlatformDeps } from "./deps.js";
import type { ReadinessCheck } from "./health.js";

/** Long-lived work a service owns (a scheduler, a queue consumer, a worker pool, a browser). */
export interface BackgroundWork {
  /** Names the work in logs. */
  name: string;
  /** Runs once the routes are registered, before the app listens. */
  start(): void | Promise<void>;
  /** Runs when the app closes, after in-flight requests: flush, drain, release. Works stop in reverse order. */
  stop(): void | Promise<void>;
}

export type ServiceSignal = "SIGHUP" | "SIGUSR2";

/** What a manifest's `build` receives: the app to fill, and everything it may depend on. */
export interface ServiceContext<Settings, Inject> {
  /** The app with the platform installed (envelope, auth, metering, health, docs); the build adds routes to it. */
  app: ServiceApp;
  platform: PlatformDeps;
  /** The service's settings as read from the environment by the manifest, with a caller's overrides applied. */
  settings: Settings;
  /** Replacements a test or benchmark injects (a DNS resolver, a code generator, a clock); empty in production. */
  inject: Partial<Inject>;
  /** Declares long-lived work: started after the build, stopped when the app closes. */
  background(work: BackgroundWork): void;
  /** A /ready check beside the database and the cache. */
  readiness(name: string, check: ReadinessCheck): void;
  /** A process signal the service reacts to; whatever runs the service (main.ts, the all-in-one start) installs it. */
  onSignal(signal: ServiceSignal, handler: () => void | Promise<void>): void;
}

/**
 * Everything that makes a service, in one place: its name, its settings, its tables and how it is built. The
 * all-in-one start, the service's own main.ts, the migration command, tests and benchmarks all go through it, so they
 * all get the same lifecycle.
 */
export interface ServiceManifest<Settings = Record<string, never>, Inject = Record<string, never>> {
  name: AppName;
  /** One sentence: shown in /docs and the OpenAPI document. */
  description: string;
  /** Reads and validates the service's own settings (use the helpers of @apiplat/config); throw to refuse to start. */
  settings?: (env: Env, config: PlatformConfig) => Settings;
  /** The folder of the service's numbered SQL migrations. */
  migrations?: URL;
  /**
   * The recorded request and answer of each operation (`openapi-examples.json` beside package.json, written by
   * `npm run record-examples -- <name>`), shown in /openapi.json.
   */
  examples?: URL;
  /**
   * The service's tables live in a PostgreSQL schema of its own (named after it), so that services sharing a
   * database cannot collide by table name; the platform's tables stay where they are. Every service built since the
   * contract sets it; the older ones keep their tables where existing deployments have them.
   */
  ownSchema?: boolean;
  /** Tables a shared package defines for its users (the catalogue's), created in the service's schema before its own. */
  sharedTables?: readonly SharedTables[];
  /** Largest request body in bytes (default 1 MiB); a function when a setting decides it (an image size limit). */
  bodyLimit?: number | ((settings: Settings) => number);
  build(context: ServiceContext<Settings, Inject>): Promise<void>;
}

/** A shared package's numbered migrations, kept in the ledger under their own namespace. */
export interface SharedTables {
  namespace: string;
  migrations: URL;
}

/** Declares a service; the identity function that gives the manifest its types. */
export function defineService<Settings = Record<string, never>, Inject = Record<string, never>>(
  manifest: ServiceManifest<Settings, Inject>,
): ServiceManifest<Settings, Inject> {
  return manifest;
}

export interface BuildServiceOptions<Settings, Inject> {
  /** Overrides of the settings read from the environment. */
  settings?: Partial<Settings>;
  inject?: Partial<Inject>;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Signal handlers a built service declared (see ServiceContext.onSignal). */
    serviceSignals: ReadonlyMap<ServiceSignal, () => void | Promise<void>>;
  }
}

/** Reads the manifest's settings from the platform's environment, applying overrides. */
export function settingsOf<Settings, Inject>(manifest: ServiceManifest<Settings, Inject>, config: PlatformConfig, overrides: Partial<Settings> = {}): Settings {
  const base = manifest.settings ? manifest.settings(config.env, config) : ({} as Settings);
  return { ...base, ...overrides };
}

/** The database as the service sees it: its own schema when the manifest asks for one, else the platform's. */
export async function serviceDatabase<Settings, Inject>(manifest: ServiceManifest<Settings, Inject>, db: Database): Promise<Database> {
  return manifest.ownSchema ? scopeToSchema(db, manifest.name) : db;
}

/** Applies the shared tables' and the service's own migrations where its tables live; the names of those applied. */
export async function migrateService<Settings, Inject>(manifest: ServiceManifest<Settings, Inject>, db: Database): Promise<string[]> {
  const own = await serviceDatabase(manifest, db);
  const applied: string[] = [];
  for (const shared of manifest.sharedTables ?? []) applied.push(...(await migrate(own, shared.namespace, shared.migrations)));
  if (manifest.migrations) applied.push(...(await migrate(own, manifest.name, manifest.migrations)));
  return applied;
}

/** Builds a service's app on the given platform: ready to listen (or to inject into), its background work running. */
export async function buildService<Settings, Inject>(
  manifest: ServiceManifest<Settings, Inject>,
  platform: PlatformDeps,
  options: BuildServiceOptions<Settings, Inject> = {},
): Promise<ServiceApp> {
  const settings = settingsOf(manifest, platform.config, options.settings);
  const checks: Record<string, ReadinessCheck> = {};
  const db = await serviceDatabase(manifest, platform.db);
  const app = await createServiceApp({
    service: manifest.name,
    deps: platform,
    bodyLimit: typeof manifest.bodyLimit === "function" ? manifest.bodyLimit(settings) : manifest.bodyLimit,
    description: manifest.description,
    readiness: checks,
    examples: manifest.examples,
  });
  await migrateService(manifest, db);
  const works: BackgroundWork[] = [];
  const signals = new Map<ServiceSignal, () => void | Promise<void>>();
  app.decorate("serviceSignals", signals);
  await manifest.build({
    app,
    platform: { ...platform, db },
    settings,
    inject: options.inject ?? {},
    background: (work) => works.push(work),
    readiness: (name, check) => {
      checks[name] = check;
    },
    onSignal: (signal, handler) => signals.set(signal, handler),
  });
  const started: BackgroundWork[] = [];
  app.addHook("onClose", async () => {
    for (const work of started.reverse()) {
      try {
        await work.stop();
      } catch (error) {
        app.log.error({ err: error, work: work.name }, "stopping background work failed");
      }
    }
  });
  try {
    for (const work of works) {
      await work.start();
      started.push(work);
    }
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
