import type { AddressInfo } from "node:net";
import type { PlanName } from "@apiplat/config";
import { buildService, serviceDatabase, type BuildServiceOptions, type ServiceApp, type ServiceManifest } from "@apiplat/service-kit";
import { createTestPlatform, type TestPlatform, type TestPlatformOptions, type TestSubscriber } from "./test-platform.js";

export interface StartServiceOptions<Settings, Inject> extends TestPlatformOptions, BuildServiceOptions<Settings, Inject> {
  /** Also listen on 127.0.0.1 (an ephemeral port), for what inject() never reaches: front routes, streams, sockets. */
  listen?: boolean;
  /** Build on this platform instead of a new one (two services, or two builds, sharing one database). */
  platform?: TestPlatform;
}

export interface StartedService {
  app: ServiceApp;
  platform: TestPlatform;
  /** A new account subscribed to this service on `plan`, with one key and its gateway headers. */
  subscribe(plan?: PlanName): Promise<TestSubscriber>;
  /** `http://127.0.0.1:<port>` when started with `listen: true`. */
  url: string;
  port: number;
  /** Closes the app (flushing what it buffered), then the platform unless it was passed in. */
  close(): Promise<void>;
}

/**
 * A service under test, built from its manifest exactly as production builds it, on real PostgreSQL and Redis isolated
 * for this test file.
 */
export async function startService<Settings, Inject>(
  manifest: ServiceManifest<Settings, Inject>,
  options: StartServiceOptions<Settings, Inject> = {},
): Promise<StartedService> {
  const platform = options.platform ?? (await createTestPlatform(options));
  const app = await buildService(manifest, platform.deps, { settings: options.settings, inject: options.inject });
  // A test reads and writes the service's tables as the service does: in its own schema when it has one.
  platform.deps.db = await serviceDatabase(manifest, platform.deps.db);
  let port = 0;
  if (options.listen) {
    await app.listen({ port: 0, host: "127.0.0.1" });
    port = (app.server.address() as AddressInfo).port;
  }
  return {
    app,
    platform,
    port,
    url: port ? `http://127.0.0.1:${port}` : "",
    subscribe: (plan = "PRO") => platform.subscribe(manifest.name, plan),
    async close() {
      await app.close();
      if (!options.platform) await platform.close();
    },
  };
}

/** Waits until the app's /ready answers 200 (a first load, a warm-up), asking every `intervalMs` at most `tries` times. */
export async function untilReady(app: ServiceApp, { tries = 600, intervalMs = 100 } = {}): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if ((await app.inject({ method: "GET", url: "/ready" })).statusCode === 200) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`the service was not ready after ${tries} tries ${intervalMs} ms apart`);
}
