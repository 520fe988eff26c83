import type { FileBlocklist } from "./blocklist.js";
import { SafeBrowsingUnavailableError, type SafeBrowsingClient } from "./safe-browsing.js";
import { hostOf } from "../domain/url.js";

export type SafetyVerdict =
  | { kind: "safe" }
  | { kind: "unsafe"; threatType: string; source: "service_domain" | "blocklist" | "safe_browsing" }
  | { kind: "unavailable"; reason: string };

export interface SafetyCheckerOptions {
  /** Host names this service answers on (the short-link host, the edge host). */
  ownHosts: ReadonlySet<string>;
  /** True when a host is a custom domain registered with this service (any account). */
  isCustomDomain: (host: string) => Promise<boolean>;
  blocklist: FileBlocklist | null;
  safeBrowsing: SafeBrowsingClient | null;
  /** When Safe Browsing cannot answer: true lets the URL through (logged), false refuses to create the link. */
  failOpen: boolean;
  onSafeBrowsingUnavailable?: (reason: string) => void;
}

/** Runs the three checks in order of cost: own domains, the local blocklist, then one Safe Browsing call for all URLs. */
export class SafetyChecker {
  constructor(private readonly options: SafetyCheckerOptions) {}

  async check(urls: readonly string[]): Promise<SafetyVerdict[]> {
    const verdicts: Array<SafetyVerdict | undefined> = await Promise.all(urls.map((url) => this.checkLocally(url)));
    const remaining = [...new Set(urls.filter((_, i) => verdicts[i] === undefined))];
    const remote = await this.checkRemotely(remaining);
    return verdicts.map((verdict, i) => verdict ?? remote.get(urls[i]) ?? { kind: "safe" });
  }

  private async checkLocally(url: string): Promise<SafetyVerdict | undefined> {
    const host = hostOf(new URL(url));
    if (this.options.ownHosts.has(host) || (await this.options.isCustomDomain(host))) {
      return { kind: "unsafe", threatType: "SHORT_LINK_LOOP", source: "service_domain" };
    }
    const listed = this.options.blocklist?.match(url);
    if (listed) return { kind: "unsafe", threatType: listed.threatType, source: "blocklist" };
    return undefined;
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
