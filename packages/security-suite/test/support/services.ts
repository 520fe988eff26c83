import type { ServiceName } from "@apiplat/config";
import type { PlatformDeps, ServiceApp } from "@apiplat/service-kit";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";

interface ServiceEntry {
  name: ServiceName;
  build(platform: PlatformDeps): Promise<ServiceApp>;
}

/** Loaded on demand: a test file pays only for the service it runs (pdf-generation brings a browser). */
const SERVICES = {
  "url-shortener": async () => (await import("@apiplat/url-shortener")).service,
  ocr: async () => (await import("@apiplat/ocr")).service,
  "webhook-relay": async () => (await import("@apiplat/webhook-relay")).service,
  "pdf-generation": async () => (await import("@apiplat/pdf-generation")).service,
} satisfies Partial<Record<ServiceName, () => Promise<ServiceEntry>>>;

export type SuiteServiceName = keyof typeof SERVICES;

export interface ServiceUnderTest {
  app: ServiceApp;
  platform: TestPlatform;
  /** X-Gateway-Key and X-Gateway-Host of a MEGA subscriber. */
  headers: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A service as production builds it (its exported entry, settings from `env`), on the real test PostgreSQL and Redis.
 * The one place that knows how a service is built: when services move to manifests, only this function changes.
 */
export async function buildServiceForTest(name: SuiteServiceName, env: Record<string, string>): Promise<ServiceUnderTest> {
  const platform = await createTestPlatform({ env });
  const entry = await SERVICES[name]();
  const app = await entry.build(platform.deps);
  await app.ready();
  const { headers } = await platform.subscribe(name, "MEGA");
  return {
    app,
    platform,
    headers,
    async close() {
      await app.close();
      await platform.close();
    },
  };
}
