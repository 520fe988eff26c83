import type { SafetyVerdict, UrlSafety } from "@apiplat/url-safety";
import { hostOf } from "../domain/url.js";

export type { SafetyVerdict } from "@apiplat/url-safety";

export interface SafetyCheckerOptions {
  /** Host names this service answers on (the short-link host, the edge host). */
  ownHosts: ReadonlySet<string>;
  /** True when a host is a custom domain registered with this service (any account). */
  isCustomDomain: (host: string) => Promise<boolean>;
  /** The shared destination check: blocklist, then Safe Browsing. */
  urlSafety: UrlSafety;
}

/** Refuses links to this service's own hosts (a short link to a short link), then runs the shared destination check. */
export class SafetyChecker {
  constructor(private readonly options: SafetyCheckerOptions) {}

  async check(urls: readonly string[]): Promise<SafetyVerdict[]> {
    const loops = await Promise.all(urls.map((url) => this.isLoop(url)));
    const shared = await this.options.urlSafety.check(urls.filter((_, i) => !loops[i]));
    let next = 0;
    return loops.map((loop) => (loop ? { kind: "unsafe", threatType: "SHORT_LINK_LOOP", source: "service_domain" } : shared[next++]));
  }

  private async isLoop(url: string): Promise<boolean> {
    const host = hostOf(new URL(url));
    return this.options.ownHosts.has(host) || (await this.options.isCustomDomain(host));
  }
}
