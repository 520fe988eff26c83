export interface RateLimit {
  /** Sustained rate: tokens added per second. */
  perSecond: number;
  /** Most tokens a key holds: how many may come at once after a quiet spell. */
  burst: number;
}

interface Bucket {
  tokens: number;
  atMs: number;
}

/**
 * Token buckets, one per key (an inbox), kept in this process. `take` spends a token, or says how many
 * whole seconds to wait for one. Buckets that have filled up again carry no information and are
 * dropped when the map grows past `maxKeys`, so memory stays bounded by the keys active lately.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly limit: RateLimit,
    private readonly maxKeys = 100_000,
  ) {}

  /** 0 when the key may go ahead now, else the seconds (at least 1) until it may. */
  take(key: string, nowMs: number): number {
    const bucket = this.buckets.get(key) ?? this.newBucket(key, nowMs);
    const elapsedMs = Math.max(0, nowMs - bucket.atMs);
    bucket.tokens = Math.min(this.limit.burst, bucket.tokens + (elapsedMs * this.limit.perSecond) / 1000);
    bucket.atMs = Math.max(bucket.atMs, nowMs);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.limit.perSecond));
  }

  private newBucket(key: string, nowMs: number): Bucket {
    if (this.buckets.size >= this.maxKeys) this.forgetFull(nowMs);
    const bucket = { tokens: this.limit.burst, atMs: nowMs };
    this.buckets.set(key, bucket);
    return bucket;
  }

  private forgetFull(nowMs: number): void {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((nowMs - bucket.atMs) * this.limit.perSecond) / 1000 >= this.limit.burst) this.buckets.delete(key);
    }
    // Every key still busy: drop the oldest rather than grow without bound.
    if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value!);
  }
}
