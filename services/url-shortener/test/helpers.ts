import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import { buildApp, type ShortenerDeps } from "../src/app.js";
import type { ShortenerSettings } from "../src/settings.js";

export const BASE_URL = "http://url-shortener.api.local:3001";
export const SHORT_HOST = "url-shortener.api.local";

export interface Harness {
  platform: TestPlatform;
  app: Awaited<ReturnType<typeof buildApp>>;
  /** The service's clock: frozen at an instant (ms) when frozenAt is set, else real time plus offsetMs. */
  clock: { offsetMs: number; frozenAt: number | null };
  close(): Promise<void>;
}

/** The service on real PostgreSQL and Redis (a schema and key prefix of its own), with a movable clock. */
export async function startService(
  options: { settings?: Partial<ShortenerSettings>; dnsResolver?: ShortenerDeps["dnsResolver"]; generateCode?: ShortenerDeps["generateCode"] } = {},
): Promise<Harness> {
  const clock: Harness["clock"] = { offsetMs: 0, frozenAt: null };
  const now = () => new Date(clock.frozenAt ?? Date.now() + clock.offsetMs);
  const platform = await createTestPlatform({ now });
  const app = await buildApp({
    ...platform.deps,
    // Clicks are written when a test reads stats (which flushes) or closes the app, never on a timer mid-test.
    settings: { baseUrl: BASE_URL, edgeHost: "edge.url-shortener.api.local", clickFlushMs: 600_000, ...options.settings },
    dnsResolver: options.dnsResolver,
    generateCode: options.generateCode,
  });
  await app.ready();
  return {
    platform,
    app,
    clock,
    async close() {
      await app.close();
      await platform.close();
    },
  };
}

export const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
export const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
export const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
