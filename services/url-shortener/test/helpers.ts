import type { ServiceApp } from "@apiplat/service-kit";
import type { ShortenerSettings } from "../src/settings.js";

export const BASE_URL = "http://url-shortener.api.local:3001";
export const SHORT_HOST = "url-shortener.api.local";

/**
 * Settings of the service under test. Clicks are written when a test reads stats (which flushes) or closes the app,
 * never on a timer mid-test.
 */
export const TEST_SETTINGS: Partial<ShortenerSettings> = { baseUrl: BASE_URL, edgeHost: "edge.url-shortener.api.local", clickFlushMs: 600_000 };

/** The service's clock: frozen at an instant (ms) when frozenAt is set, else real time plus offsetMs. */
export interface MovableClock {
  offsetMs: number;
  frozenAt: number | null;
  now(): Date;
}

export function movableClock(): MovableClock {
  const clock: MovableClock = { offsetMs: 0, frozenAt: null, now: () => new Date(clock.frozenAt ?? Date.now() + clock.offsetMs) };
  return clock;
}

export const CHROME_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
export const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
export const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

/** PUT /settings with the account's fallback URL (null removes it). */
export function putFallback(app: ServiceApp, headers: Record<string, string>, fallbackUrl: string | null) {
  return app.inject({ method: "PUT", url: "/settings", headers, payload: { fallback_url: fallbackUrl } });
}
