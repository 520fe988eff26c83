/**
 * A currency-exchange instance on real PostgreSQL and Redis (fresh schema and key prefix), seeded from the recorded
 * central-bank feeds of the datasets folder, listening on a real port, with one MEGA subscriber's gateway headers.
 * No feed is ever fetched: no feeds, no schedule.
 */
import type { AddressInfo } from "node:net";
import { startService } from "@apiplat/testing";
import currencyExchange from "@apiplat/currency-exchange";

export interface SeededInstance {
  base: string;
  headers: Record<string, string>;
  close(): Promise<void>;
}

export async function startSeededInstance(port = 0): Promise<SeededInstance> {
  const started = await startService(currencyExchange, {
    env: { METERING_FLUSH_MS: "2000", LOG_REQUESTS: "false" },
    settings: { feeds: [], schedule: [], fetchOnStart: false, seedHistoryDays: 400 },
  });
  await started.app.listen({ port, host: "127.0.0.1" });
  const { headers } = await started.subscribe("MEGA");
  return { base: `http://127.0.0.1:${(started.app.server.address() as AddressInfo).port}`, headers, close: () => started.close() };
}
