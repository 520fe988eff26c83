import { isPlausibleCode } from "../domain/codes.js";
import { hasClicksLeft, takeLimitedClick } from "../store/links.js";
import type { Queryable } from "@apiplat/storage";
import type { ClickRecorder } from "../engine/click-recorder.js";
import type { CachedLink, LinkCache } from "../engine/link-cache.js";
import type { LocalLookup } from "../engine/local-lookup.js";

export interface Visit {
  host: string;
  code: string;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  /** false for HEAD: link checkers see where the link goes without using up a click or counting as one. */
  countClick: boolean;
}

type RedirectOutcome =
  /** `recorded`: resolves once the click is kept (answer only then, or a crash could lose it). */
  { kind: "target"; location: string; status: 301 | 302; recorded: Promise<void> } | { kind: "fallback"; location: string } | { kind: "not_found" };

interface RedirectorDeps {
  db: Queryable;
  links: LinkCache;
  /** host -> domain key ('' for the service's own host, else a verified custom domain). */
  domainForHost: (host: string) => string;
  accountFallbacks: LocalLookup<string | null>;
  clicks: ClickRecorder;
  now: () => Date;
}

/** Not deleted and not expired; a click limit is checked apart, against the shared counter. */
function isLive(link: CachedLink, now: Date): boolean {
  return !link.deleted && (link.expiresAt === null || link.expiresAt > now.getTime());
}

/** The hot path: finds the link, decides where the visitor goes, and queues the click. */
export class Redirector {
  constructor(private readonly deps: RedirectorDeps) {}

  /**
   * The common case answered without waiting: a counted visit to an active link without a click limit, held in the
   * in-process cache. Undefined for everything else, which `visit` answers.
   */
  visitFromMemory(visit: Visit): RedirectOutcome | undefined {
    if (!visit.countClick || !isPlausibleCode(visit.code)) return undefined;
    const link = this.deps.links.peek(this.deps.domainForHost(visit.host), visit.code);
    if (!link || link.maxClicks !== null) return undefined;
    const now = this.deps.now();
    if (!isLive(link, now)) return undefined;
    return { kind: "target", location: link.url, status: link.redirectStatus, recorded: this.recordClick(link, visit, now) };
  }

  async visit(visit: Visit): Promise<RedirectOutcome> {
    if (!isPlausibleCode(visit.code)) return { kind: "not_found" };
    const domain = this.deps.domainForHost(visit.host);
    const link = await this.deps.links.get(domain, visit.code);
    if (!link) return { kind: "not_found" };
    const now = this.deps.now();
    let active = isLive(link, now);
    if (active && !visit.countClick && link.maxClicks !== null) active = await hasClicksLeft(this.deps.db, link.id);
    if (active && !visit.countClick) return { kind: "target", location: link.url, status: link.redirectStatus, recorded: Promise.resolve() };
    if (active && link.maxClicks !== null) active = await takeLimitedClick(this.deps.db, link.id, now);
    if (active) return { kind: "target", location: link.url, status: link.redirectStatus, recorded: this.recordClick(link, visit, now) };
    const fallback = link.fallbackUrl ?? (await this.deps.accountFallbacks.get(link.accountId));
    return fallback ? { kind: "fallback", location: fallback } : { kind: "not_found" };
  }

  private recordClick(link: CachedLink, visit: Visit, now: Date): Promise<void> {
    return this.deps.clicks.record({
      linkId: link.id,
      at: now.getTime(),
      ip: visit.ip,
      userAgent: visit.userAgent,
      referer: visit.referer,
      counted: link.maxClicks !== null,
    });
  }
}
