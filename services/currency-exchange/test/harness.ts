/**
 * A currency-exchange instance on real PostgreSQL and Redis (fresh schema and key prefix), seeded from the
 * recorded central-bank feeds, listening on a real port, with one MEGA subscriber's gateway headers.
 */
import path from "node:path";
import type { AddressInfo } from "node:net";
import { createTestPlatform } from "@apiplat/testing";
import { buildCurrencyApp } from "../src/app.js";
import { offlineSettings } from "../src/settings.js";

export interface Harness {
  base: string;
  headers: Record<string, string>;
  close(): Promise<void>;
}

export async function startHarness(options: { port?: number; now?: () => Date; env?: Record<string, string> } = {}): Promise<Harness> {
  const platform = await createTestPlatform({ now: options.now, env: { METERING_FLUSH_MS: "2000", LOG_REQUESTS: "false", ...options.env } });
  const seed = path.join(platform.deps.config.datasetsDir, "currency-exchange");
  const { app } = await buildCurrencyApp(platform.deps, offlineSettings({ seedPaths: [seed], seedHistoryDays: 400 }));
  await app.listen({ port: options.port ?? 0, host: "127.0.0.1" });
  const { port } = app.server.address() as AddressInfo;
  const { headers } = await platform.subscribe("currency-exchange", "MEGA");
  return {
    base: `http://127.0.0.1:${port}`,
    headers,
    async close() {
      await app.close();
      await platform.close();
    },
  };
}
