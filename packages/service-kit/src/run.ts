import { mkdirSync } from "node:fs";
import { loadConfig, serviceEndpoint, type PlatformConfig, type ServiceName } from "@apiplat/config";
import { openDatabase, openKeyValueStore } from "@apiplat/storage";
import type { PlatformDeps } from "./deps.js";
import type { ServiceApp } from "./create-app.js";

export interface OpenPlatform extends PlatformDeps {
  close(): Promise<void>;
}

/** Real dependencies from configuration: PostgreSQL and Redis when configured, embedded defaults otherwise. */
export async function openPlatform(config: PlatformConfig = loadConfig()): Promise<OpenPlatform> {
  // Private from the first start on (storage narrows anything wider it finds there).
  if (!config.databaseUrl && config.embeddedDataDir) mkdirSync(config.embeddedDataDir, { recursive: true, mode: 0o700 });
  const db = await openDatabase(config.databaseUrl, config.embeddedDataDir);
  const kv = await openKeyValueStore(config.redisUrl);
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

export type ServiceBuilder = (platform: PlatformDeps) => Promise<ServiceApp>;

/** main.ts of a service: build it on real dependencies, listen on its port, close cleanly on SIGTERM. */
export async function runService(service: ServiceName, build: ServiceBuilder): Promise<void> {
  const platform = await openPlatform();
  const app = await build(platform);
  const { port } = serviceEndpoint(platform.config, service);
  await app.listen({ port, host: platform.config.bindAddress });
  onShutdownSignal(async () => {
    await app.close();
    await platform.close();
  });
}
