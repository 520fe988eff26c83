import type { FileBlocklist } from "./blocklist.js";
import { UrlSafety } from "./checker.js";
import { SafeBrowsingClient } from "./safe-browsing.js";

/** What a service's settings say of Safe Browsing (its SAFE_BROWSING_* variables). */
export interface SafeBrowsingSettings {
  safeBrowsingApiKey: string | null;
  safeBrowsingEndpoint: string;
  safeBrowsingTimeoutMs: number;
  safeBrowsingFailOpen: boolean;
}

/**
 * The blocklist and, with an API key, Safe Browsing (called as `clientId`); open or closed when Safe Browsing fails,
 * as configured, and each failure logged.
 */
export function configuredUrlSafety(
  settings: SafeBrowsingSettings,
  blocklist: FileBlocklist | null,
  clientId: string,
  log: { warn(details: object, message: string): void },
): UrlSafety {
  return new UrlSafety({
    blocklist,
    safeBrowsing: settings.safeBrowsingApiKey
      ? new SafeBrowsingClient({
          apiKey: settings.safeBrowsingApiKey,
          endpoint: settings.safeBrowsingEndpoint,
          timeoutMs: settings.safeBrowsingTimeoutMs,
          clientId,
          clientVersion: "1.0.0",
        })
      : null,
    failOpen: settings.safeBrowsingFailOpen,
    onSafeBrowsingUnavailable: (reason) => log.warn({ reason, policy: settings.safeBrowsingFailOpen ? "open" : "closed" }, "Safe Browsing unavailable"),
  });
}
