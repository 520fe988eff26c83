import type { ServiceName } from "@apiplat/config";
import { deployedService } from "@apiplat/deployment";
import type { ServiceApp } from "@apiplat/service-kit";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";

/** The services the suite attacks (user-given URLs, inbound mail); a new one adds its name and a runner. */
export type SuiteServiceName = Extract<ServiceName, "url-shortener" | "ocr" | "webhook-relay" | "pdf-generation" | "summarization" | "email-sending">;

export interface ServiceUnderTest {
  app: ServiceApp;
  platform: TestPlatform;
  /** X-Gateway-Key and X-Gateway-Host of a MEGA subscriber. */
  headers: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A service as production builds it (its manifest, settings from `env`), on the real test PostgreSQL and Redis.
 */
export async function buildServiceForTest(name: SuiteServiceName, env: Record<string, string>): Promise<ServiceUnderTest> {
  const platform = await createTestPlatform({ env });
  const entry = await deployedService(name);
  if (!entry) throw new Error(`${name} is not deployed`);
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
