import { LruCache } from "../domain/lru.js";
import type { GuardedKv } from "./kv-guard.js";

/** A read-through in-process cache whose entries every process drops when one of them announces a change. */
export class LocalLookup<V> {
  private readonly cache: LruCache<V>;
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly channel: string,
    private readonly kv: GuardedKv,
    private readonly load: (key: string) => Promise<V>,
    private readonly options: { entries: number; ttlMs: number },
  ) {
    this.cache = new LruCache(options.entries);
  }

  async start(): Promise<void> {
    this.unsubscribe = await this.kv.call((kv) => kv.subscribe(this.channel, (key) => this.cache.delete(key)), null);
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  async get(key: string): Promise<V> {
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached;
    const value = await this.load(key);
    this.cache.set(key, value, this.options.ttlMs);
    return value;
  }

  async invalidate(key: string): Promise<void> {
    this.cache.delete(key);
    await this.kv.call((kv) => kv.publish(this.channel, key), undefined);
  }
}
