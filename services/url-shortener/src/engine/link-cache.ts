import { LruCache } from "../domain/lru.js";
import { findLinkByCode, type LinkRow } from "../store/links.js";
import type { Queryable } from "@apiplat/storage";
import type { GuardedKv } from "./kv-guard.js";

/** What a redirect needs to know about a link, small enough to cache everywhere. */
export interface CachedLink {
  id: number;
  accountId: string;
  url: string;
  fallbackUrl: string | null;
  redirectStatus: 301 | 302;
  expiresAt: number | null;
  maxClicks: number | null;
  deleted: boolean;
}

const INVALIDATION_CHANNEL = "url-shortener:link-invalidated";
/** A code nobody has: cached briefly so that scans of random codes do not reach PostgreSQL each time. */
const MISS_TTL_MS = 5_000;
const MISS = "-";
/** When a change's invalidation is sent a second time (see invalidateMany). */
const REPEAT_INVALIDATION_MS = 1_000;

function toCachedLink(row: LinkRow): CachedLink {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    fallbackUrl: row.fallback_url,
    redirectStatus: row.redirect_status === 301 ? 301 : 302,
    expiresAt: row.expires_at ? row.expires_at.getTime() : null,
    maxClicks: row.max_clicks,
    deleted: row.deleted_at !== null,
  };
}

/** code -> link lookups through an in-process LRU, then Redis, then PostgreSQL; changes invalidate all processes. */
export class LinkCache {
  private readonly local: LruCache<CachedLink | null>;
  private unsubscribe: (() => Promise<void>) | null = null;
  /**
   * Counts invalidations seen here. A lookup that read PostgreSQL while one arrived may hold the link as it was before
   * the change: it answers with it, but neither caches it here nor in Redis, so the change is not undone.
   */
  private generation = 0;

  constructor(
    private readonly db: Queryable,
    private readonly kv: GuardedKv,
    private readonly options: { entries: number; localTtlMs: number; redisTtlSeconds: number },
  ) {
    this.local = new LruCache(Math.max(1, options.entries));
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.kv.call((kv) => kv.subscribe(INVALIDATION_CHANNEL, (keys) => this.forget(keys.split("\n"))), null);
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  /** The in-process entry only: a link, null for a code known not to exist, undefined when not held here. */
  peek(domain: string, code: string): CachedLink | null | undefined {
    return this.local.get(cacheKey(domain, code));
  }

  async get(domain: string, code: string): Promise<CachedLink | null> {
    const key = cacheKey(domain, code);
    const local = this.local.get(key);
    if (local !== undefined) return local;
    const generation = this.generation;
    const shared = await this.kv.call((kv) => kv.get(key), null);
    if (shared !== null) {
      const link = shared === MISS ? null : (JSON.parse(shared) as CachedLink);
      if (generation === this.generation) this.remember(key, link);
      return link;
    }
    const row = await findLinkByCode(this.db, domain, code);
    const link = row ? toCachedLink(row) : null;
    if (generation !== this.generation) return link;
    this.remember(key, link);
    const ttl = link ? this.options.redisTtlSeconds : Math.ceil(MISS_TTL_MS / 1000);
    void this.kv.call((kv) => kv.set(key, link ? JSON.stringify(link) : MISS, ttl), undefined);
    return link;
  }

  /** Forgets a code everywhere: after a link is created (a cached miss) or changed. */
  async invalidate(domain: string, code: string): Promise<void> {
    await this.invalidateMany([{ domain, code }]);
  }

  async invalidateMany(links: ReadonlyArray<{ domain: string; code: string }>): Promise<void> {
    if (links.length === 0) return;
    const keys = links.map((link) => cacheKey(link.domain, link.code));
    await this.forgetEverywhere(keys);
    // Once more a moment later: a replica that read the link just before the change and was still storing it then
    // (a lookup takes milliseconds) cannot leave the old link in Redis for the hour of its TTL.
    setTimeout(() => void this.forgetEverywhere(keys), REPEAT_INVALIDATION_MS).unref();
  }

  private async forgetEverywhere(keys: readonly string[]): Promise<void> {
    this.forget(keys);
    await this.kv.call((kv) => kv.del(...keys), undefined);
    await this.kv.call((kv) => kv.publish(INVALIDATION_CHANNEL, keys.join("\n")), undefined);
  }

  private forget(keys: readonly string[]): void {
    this.generation++;
    for (const key of keys) this.local.delete(key);
  }

  private remember(key: string, link: CachedLink | null): void {
    if (this.options.entries === 0) return;
    this.local.set(key, link, link ? this.options.localTtlMs : MISS_TTL_MS);
  }
}

function cacheKey(domain: string, code: string): string {
  return `url-shortener:link:${domain}:${code}`;
}
