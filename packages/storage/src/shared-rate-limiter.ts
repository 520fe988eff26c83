import type { KeyValueStore } from "./key-value.js";
import { createMemoryStore } from "./memory-store.js";
import { DenyCache, type RateLimit } from "./rate-limit.js";

/**
 * One rate limit for every key of a kind (an inbox), held across replicas: GCRA on the shared store, one round trip per
 * admission, with the DenyCache fast path (a refused key is refused in-process until the store said it may retry).
 * When the store fails, the limit is kept in this process (per replica) until it answers again, and `onStoreError` is
 * told (at most every 10 s); a service stays up without Redis, as the anchors' limiters do by default.
 */
export class SharedRateLimiter {
  private readonly denied = new DenyCache();
  private readonly fallback = createMemoryStore();
  private lastWarning = -Infinity;

  constructor(
    private readonly kv: KeyValueStore,
    readonly limit: RateLimit,
    private readonly prefix: string,
    private readonly onStoreError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when `key` may go ahead now (and it is counted), else the whole seconds (at least 1) until it may. */
  async take(key: string): Promise<number> {
    const nowMs = this.now();
    const refused = this.denied.refusal(key, nowMs);
    if (refused) return Math.max(1, Math.ceil(refused.remainingMs / 1000));
    let waitMs: number;
    try {
      waitMs = await this.kv.throttle(this.prefix + key, this.limit);
    } catch (error) {
      if (nowMs - this.lastWarning >= 10_000) {
        this.lastWarning = nowMs;
        this.onStoreError(error);
      }
      waitMs = await this.fallback.throttle(this.prefix + key, this.limit);
    }
    if (waitMs === 0) return 0;
    this.denied.refuse(key, nowMs, waitMs);
    return Math.max(1, Math.ceil(waitMs / 1000));
  }

  close(): Promise<void> {
    return this.fallback.close();
  }
}
