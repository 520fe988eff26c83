import type { RateLimit } from "./rate-limit.js";

/** Outcome of admitting one metered request (see KeyValueStore.admitRequest). */
export type Admission =
  | { outcome: "admitted"; used: number }
  /** `retryAfterMs`: when the rate limit admits again. */
  | { outcome: "rate_limited"; used: number; retryAfterMs: number }
  | { outcome: "quota_exceeded"; used: number }
  /** The monthly counter is unknown here (new month, or the store was emptied): call again with `seed`. */
  | { outcome: "needs_seed" };

/** One request in a usage log: a hash whose fields count requests (see admitRequest, takeHash). */
export interface UsageEntry {
  log: string;
  field: string;
}

export interface AdmitRequest {
  rateKey: string;
  /** null: no rate limit. */
  rate: RateLimit | null;
  quotaKey: string;
  /** Hard monthly limit; null when the plan allows overage. */
  quotaLimit: number | null;
  quotaTtlSeconds: number;
  /** Requests already recorded this month, used when the counter is missing. */
  seed?: number;
  /** Where an admitted request is counted for billing, in the same step. */
  usage?: UsageEntry;
}

/**
 * What may be lost or rebuilt: caches, counters, pub/sub. Redis in production; in-process when no
 * REDIS_URL is configured. Every operation is atomic on its own.
 */
export interface KeyValueStore {
  readonly kind: "redis" | "memory";
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(...keys: string[]): Promise<void>;
  /** Increments and returns the new value; the TTL is set when the key is created. */
  incr(key: string, ttlSeconds?: number): Promise<number>;
  /** Adds `by` and returns the new value; the TTL is set when the key is created. */
  incrBy(key: string, by: number, ttlSeconds?: number): Promise<number>;
  /** Increments only while the value is below `limit`; returns the new value, or null at the limit. */
  incrIfBelow(key: string, limit: number, ttlSeconds?: number): Promise<number | null>;
  /**
   * Gives back an admitted request: one off the month's counter when it exists, and one off its usage entry, in one
   * step.
   */
  refundRequest(quotaKey: string, usage?: UsageEntry): Promise<void>;
  /**
   * Moves the hash `from` to `to` and returns its fields, in one step, listing `to` in the sorted set `ledger` with the
   * time `atMs`; null when there is no such hash. Whoever gets the fields owns them (every other caller finds nothing
   * to take) until it releases them; the ledger lets another find what a taker that died left behind.
   */
  takeHash(from: string, to: string, ledger: string, atMs: number): Promise<Record<string, string> | null>;
  /** The hashes of `ledger` taken before `beforeMs`, with their fields. */
  takenBefore(ledger: string, beforeMs: number): Promise<{ key: string; fields: Record<string, string> }[]>;
  /** Deletes a taken hash or list and its ledger line. */
  releaseTaken(ledger: string, key: string): Promise<void>;
  /** Appends values to the end of the list `key` (a log that takeList drains), in one step. */
  pushList(key: string, values: readonly string[]): Promise<void>;
  /**
   * Moves at most `max` values from the head of the list `from` to the new list `to` and returns them, in one step,
   * listing `to` in the sorted set `ledger` with the time `atMs`; null when `from` is empty. As takeHash, for logs that
   * may grow faster than one taker can apply them.
   */
  takeList(from: string, to: string, ledger: string, atMs: number, max: number): Promise<string[] | null>;
  /** The lists of `ledger` taken before `beforeMs`, with their values. */
  takenListsBefore(ledger: string, beforeMs: number): Promise<{ key: string; values: string[] }[]>;
  /**
   * One admission under a rate limit shared by every process on this store (GCRA, see rate-limit.ts): 0 when admitted,
   * else the milliseconds until one would be.
   */
  throttle(key: string, limit: RateLimit): Promise<number>;
  /**
   * The platform's hot path in one round trip: refuse when the monthly quota is used up, else take the request from
   * the rate limit (GCRA) and refuse past it, else count it in the month.
   */
  admitRequest(request: AdmitRequest): Promise<Admission>;
  publish(channel: string, message: string): Promise<void>;
  /** Returns a function that unsubscribes this handler. */
  subscribe(channel: string, handler: (message: string) => void): Promise<() => Promise<void>>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
