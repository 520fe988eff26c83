import { loadConfig, serviceEndpoint, type AppName, type PlatformConfig } from "@apiplat/config";
import { openDatabase, openKeyValueStore } from "@apiplat/storage";
import { startTracing } from "@apiplat/tracing";
import type { PlatformDeps } from "./deps.js";
import type { ServiceApp } from "./create-app.js";
import { buildService, type ServiceManifest } from "./define-service.js";
import { InstanceRegistry } from "./instances.js";
import { setServiceRuntimeFlags } from "./runtime-flags.js";

export interface OpenPlatform extends PlatformDeps {
  close(): Promise<void>;
}

/** Real dependencies from configuration: PostgreSQL at DATABASE_URL, and Redis when configured (else an in-process store). */
export async function openPlatform(config: PlatformConfig = loadConfig()): Promise<OpenPlatform> {
  const db = await openDatabase(config.databaseUrl, config.databaseSchema);
  // search_path skips a schema that does not exist, and the migrations would then have nowhere to create tables.
  if (config.databaseUrl && config.databaseSchema) await db.exec(`CREATE SCHEMA IF NOT EXISTS "${config.databaseSchema}"`);
  const kv = await openKeyValueStore(config.redisUrl, config.redisKeyPrefix);
  return {
    config,
    db,
    kv,
    now: () => new Date(),
    async close() {
      await kv.close();
      await db.close();
    },
  };
}

/** Runs `stop` once on SIGTERM or SIGINT, then exits. */
export function onShutdownSignal(stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.error(`${signal} received: finishing in-flight requests and flushing buffers`);
    stop().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => handler("SIGTERM"));
  process.once("SIGINT", () => handler("SIGINT"));
}

/** Installs the signal handlers a built service declared (a blocklist reload on SIGHUP, say). */
export function installServiceSignals(app: ServiceApp): void {
  for (const [signal, handler] of app.serviceSignals ?? []) {
    process.on(signal, () => {
      Promise.resolve()
        .then(handler)
        .catch((error) => app.log.error({ err: error, signal }, "signal handler failed"));
    });
  }
}

export type ServiceBuilder = (platform: PlatformDeps) => Promise<ServiceApp>;

/**
 * A service's main.ts: `await runService(service)`. Opens the platform from the environment, builds the service from
 * its manifest, listens on its port, installs its signal handlers and closes everything on SIGTERM/SIGINT.
 */
export async function runService<S, I>(manifest: ServiceManifest<S, I>): Promise<void>;
/** @deprecated the form from before manifests; every service moves to runService(manifest). */
export async function runService(service: AppName, build: ServiceBuilder): Promise<void>;
export async function runService<S, I>(target: ServiceManifest<S, I> | AppName, build?: ServiceBuilder): Promise<void> {
  setServiceRuntimeFlags();
  const name = typeof target === "string" ? target : target.name;
  // Before the platform opens: its database and cache are traced only when tracing is on when they are made.
  const tracing = await startTracing(name);
  const platform = await openPlatform();
  const app = typeof target === "string" ? await build!(platform) : await buildService(target, platform);
  const { port } = serviceEndpoint(platform.config, name);
  // On a shared database, an instance that cannot share its limits and streams with the others refuses to start.
  let registry: InstanceRegistry | undefined;
  if (platform.config.databaseUrl) {
    const store = platform.kv.kind === "redis" ? `redis ${platform.config.redisKeyPrefix ?? ""}` : "memory";
    try {
      registry = await InstanceRegistry.join(platform.db, { service: name, store, log: app.log });
    } catch (error) {
      await app.close();
      await platform.close();
      throw error;
    }
  }
  await app.listen({ port, host: platform.config.bindAddress });
  installServiceSignals(app);
  onShutdownSignal(async () => {
    await app.close();
    await registry?.leave();
    await platform.close();
    // Last: the spans of the requests that finished while stopping go out too.
    await tracing?.shutdown();
  });
}
