/** When to try a webhook again: a schedule of base delays, spread by jitter, and the destination's Retry-After. */

export interface RetryPolicy {
  /** Delay before retry n (n = 1..length); past the last one there is no further attempt. */
  baseDelaysMs: readonly number[];
  /** Each delay is moved by up to this fraction either way so that retries of a burst spread out. */
  jitterFraction: number;
  /** A destination's Retry-After is honoured up to this long; past it the schedule applies. */
  maxRetryAfterMs: number;
}

/** Eight attempts: 5 s, then four times longer each time, up to 5 h 41 min (about 7 h 35 min in all). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelaysMs: Array.from({ length: 7 }, (_, i) => 5_000 * 4 ** i),
  jitterFraction: 0.2,
  maxRetryAfterMs: 6 * 60 * 60 * 1000,
};

export interface AttemptOutcome {
  /** HTTP status, or null when no response came (network error, timeout). */
  statusCode: number | null;
  /** A refusal that will not change by retrying (the URL guard refused the destination). */
  permanentError?: boolean;
  retryAfter?: string;
}

export function isSuccess(outcome: AttemptOutcome): boolean {
  return outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
}

/** Network errors, 5xx, 408 and 429 are worth retrying; other 4xx, 3xx and guard refusals are not. */
export function isRetryable(outcome: AttemptOutcome): boolean {
  if (outcome.permanentError) return false;
  const status = outcome.statusCode;
  return status === null || status === 408 || status === 429 || status >= 500;
}

/** Seconds or an HTTP date, as RFC 9110 section 10.2.3 allows; null when unusable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now.getTime());
}

/**
 * Delay before the next attempt after attempt number `attempt` (1-based) ended with `outcome`, or null when there is
 * no next attempt. `random` is in [0, 1).
 */
export function nextRetryDelayMs(
  attempt: number,
  outcome: AttemptOutcome,
  now: Date,
  random: number,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): number | null {
  if (isSuccess(outcome) || !isRetryable(outcome)) return null;
  const base = policy.baseDelaysMs[attempt - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 - policy.jitterFraction + 2 * policy.jitterFraction * random));
  const asked = parseRetryAfter(outcome.retryAfter, now);
  if (asked !== null && asked <= policy.maxRetryAfterMs) return Math.max(jittered, asked);
  return jittered;
}
