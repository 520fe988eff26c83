/**
 * A real listening instance of a service for benchmarks that drive it from the same process: the test
 * platform's PostgreSQL schema and Redis prefix (nothing is left behind) and a MEGA subscriber.
 */
import type { AddressInfo } from "node:net";
import type { ServiceName } from "@apiplat/config";
import type { ServiceApp } from "@apiplat/service-kit";
import { createTestPlatform, type TestDeps, type TestPlatformOptions } from "@apiplat/testing";

export interface Instance {
  url: string;
  headers: Record<string, string>;
  app: ServiceApp;
  close: () => Promise<void>;
}

export async function startInstance(
  service: ServiceName,
  build: (deps: TestDeps) => Promise<ServiceApp>,
  options: TestPlatformOptions = {},
): Promise<Instance> {
  const platform = await createTestPlatform(options);
  const app = await build(platform.deps);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const { headers } = await platform.subscribe(service, "MEGA");
  return {
    url: `http://127.0.0.1:${port}`,
    headers,
    app,
    async close() {
      await app.close();
      await platform.close();
    },
  };
}
