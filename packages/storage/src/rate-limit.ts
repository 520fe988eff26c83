/**
 * Rate limits that hold across every replica: the one algorithm of the platform, used by the plans' per-second limits
 * and by webhook-relay's captures per inbox.
 *
 * GCRA (the generic cell rate algorithm, as in redis-cell and Stripe's and Heroku's limiters): a key stores one number,
 * its theoretical arrival time (TAT). A request is admitted when TAT - now <= (burst - 1) x interval, and then moves TAT
 * one interval (1 / rate) later. It is a token bucket written as one timestamp:
 * - exact under concurrency: the check and the update are one Lua script, so parallel requests on any number of
 *   replicas cannot pass it; and one clock, Redis's own (TIME), so replicas' clock skew does not matter;
 * - O(1) state per key (a sliding log keeps every request of the window);
 * - a burst and a sustained rate in one rule (webhook-relay's 10/s with bursts of 20; a plan's N/s with bursts of N),
 *   smooth where fixed windows (Kong's and Envoy's counters) let 2N through across a window's edge, and exact where
 *   a sliding-window counter (Unkey, Kong's sliding policy) approximates;
 * - the time until the next admission falls out of the arithmetic (Retry-After).
 *
 * With burst N and rate N/s, at most N requests pass at once and then one every 1/N s: in any one-second window at
 * most 2N - 1, and in a flood of T seconds from a quiet start N + T x N - 1.
 */
export interface RateLimit {
  /** Sustained rate: admissions per second. */
  perSecond: number;
  /** How many may pass at once after a quiet spell (at least 1). */
  burst: number;
}

/** The interval between admissions in microseconds, rounded up (never faster than the rate). */
export function intervalMicros(limit: RateLimit): number {
  return Math.max(1, Math.ceil(1_000_000 / limit.perSecond));
}

export interface GcraStep {
  /** The new TAT when admitted; null when refused (the state does not change). */
  tat: number | null;
  /** Microseconds until a request would be admitted; 0 when this one is. */
  waitMicros: number;
}

/** One GCRA decision at `now` (microseconds) for a key whose TAT is `tat` (undefined: a key not seen lately). */
export function gcra(tat: number | undefined, now: number, limit: RateLimit): GcraStep {
  const interval = intervalMicros(limit);
  const from = tat === undefined || tat < now ? now : tat;
  const wait = from - (Math.max(1, limit.burst) - 1) * interval - now;
  if (wait > 0) return { tat: null, waitMicros: wait };
  return { tat: from + interval, waitMicros: 0 };
}

/**
 * The same decision in Lua for Redis scripts that include it: gcra(key, interval, burst) returns the microseconds to
 * wait (0: admitted, and the key's TAT moved). The key expires when its bucket would be full again.
 */
export const GCRA_LUA = `
local function gcra(key, interval, burst)
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  local wait = tat - (burst - 1) * interval - now
  if wait > 0 then return wait end
  tat = tat + interval
  redis.call('SET', key, string.format('%.0f', tat), 'PX', math.floor((tat - now) / 1000) + 1)
  return 0
end`;

const DENY_CACHE_MAX_KEYS = 100_000;

/**
 * The in-process fast path of a shared limiter: a key the shared store refused until some instant is refused here,
 * without asking, until then. It only ever refuses, so it cannot let more through than the limit. Under GCRA the wait
 * is at most one interval (1 / rate), so the most it can refuse wrongly is that long after the store lost its state.
 * Each refusal keeps a number of the caller's (the month's count the store gave with it).
 */
export class DenyCache {
  private readonly entries = new Map<string, { until: number; note: number }>();

  constructor(private readonly maxKeys = DENY_CACHE_MAX_KEYS) {}

  /** The refusal still running for this key, or undefined: ask the store. */
  refusal(key: string, nowMs: number): { remainingMs: number; note: number } | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return { remainingMs: entry.until - nowMs, note: entry.note };
  }

  refuse(key: string, nowMs: number, forMs: number, note = 0): void {
    if (forMs <= 0) return;
    if (this.entries.size >= this.maxKeys) {
      for (const [k, entry] of this.entries) if (entry.until <= nowMs) this.entries.delete(k);
      if (this.entries.size >= this.maxKeys) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, { until: nowMs + forMs, note });
  }
}
