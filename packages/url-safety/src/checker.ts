import type { FileBlocklist } from "./blocklist.js";
import { SafeBrowsingUnavailableError, type SafeBrowsingClient } from "./safe-browsing.js";

export type SafetyVerdict =
  | { kind: "safe" }
  | { kind: "unsafe"; threatType: string; source: "service_domain" | "blocklist" | "safe_browsing" }
  | { kind: "unavailable"; reason: string };

export interface UrlSafetyOptions {
  blocklist: FileBlocklist | null;
  safeBrowsing: SafeBrowsingClient | null;
  /** When Safe Browsing cannot answer: true lets the URL through (logged), false answers `unavailable`. */
  failOpen: boolean;
  onSafeBrowsingUnavailable?: (reason: string) => void;
}

/**
 * The destination check every service applies to a URL it will send people to: the local blocklist first, then one
 * Safe Browsing call for all URLs the blocklist did not flag. URLs must be normalized (`normalizeUrl`).
 */
export class UrlSafety {
  constructor(private readonly options: UrlSafetyOptions) {}

  get configured(): boolean {
    return this.options.blocklist !== null || this.options.safeBrowsing !== null;
  }

  async check(urls: readonly string[]): Promise<SafetyVerdict[]> {
    const verdicts: Array<SafetyVerdict | undefined> = urls.map((url) => this.checkLocally(url));
    const remaining = [...new Set(urls.filter((_, i) => verdicts[i] === undefined))];
    const remote = await this.checkRemotely(remaining);
    return verdicts.map((verdict, i) => verdict ?? remote.get(urls[i]) ?? { kind: "safe" });
  }

  private checkLocally(url: string): SafetyVerdict | undefined {
    const listed = this.options.blocklist?.match(url);
    return listed ? { kind: "unsafe", threatType: listed.threatType, source: "blocklist" } : undefined;
  }

  private async checkRemotely(urls: readonly string[]): Promise<Map<string, SafetyVerdict>> {
    const verdicts = new Map<string, SafetyVerdict>();
    if (!this.options.safeBrowsing || urls.length === 0) return verdicts;
    try {
      const flagged = await this.options.safeBrowsing.lookup(urls);
      for (const [url, threatType] of flagged) verdicts.set(url, { kind: "unsafe", threatType, source: "safe_browsing" });
    } catch (error) {
      if (!(error instanceof SafeBrowsingUnavailableError)) throw error;
      this.options.onSafeBrowsingUnavailable?.(error.message);
      if (!this.options.failOpen) {
        for (const url of urls) verdicts.set(url, { kind: "unavailable", reason: `Safe Browsing ${error.message}` });
      }
    }
    return verdicts;
  }
}
