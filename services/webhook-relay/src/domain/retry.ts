/** Up to this many delivery attempts per captured request (the first plus seven retries). */
export const MAX_ATTEMPTS = 8;

/** Base delays before retry n (n = 1..7): 5 s, then four times longer each time, up to 5 h 41 min. */
export const RETRY_BASE_DELAYS_MS: readonly number[] = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => 5_000 * 4 ** i);

/** Each delay is moved by up to this fraction either way so that retries of a burst spread out. */
const JITTER_FRACTION = 0.2;

/** A destination's Retry-After is honoured up to this long; past it the schedule applies. */
const MAX_RETRY_AFTER_MS = 6 * 60 * 60 * 1000;

interface AttemptOutcome {
  /** HTTP status, or null when no response came (network error, timeout). */
  statusCode: number | null;
  /** A refusal that will not change by retrying (the URL guard refused the destination). */
  permanentError?: boolean;
  retryAfter?: string;
}

export function isSuccess(outcome: AttemptOutcome): boolean {
  return outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
}

/** Network errors, 5xx and 429 are worth retrying; other 4xx, 3xx and guard refusals are not. */
function isRetryable(outcome: AttemptOutcome): boolean {
  if (outcome.permanentError) return false;
  const status = outcome.statusCode;
  return status === null || status === 429 || status >= 500;
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

export interface RetryPolicy {
  baseDelaysMs: readonly number[];
  jitterFraction: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseDelaysMs: RETRY_BASE_DELAYS_MS, jitterFraction: JITTER_FRACTION };

/**
 * Delay before the next attempt after attempt number `attempt` (1-based) ended with `outcome`, or null
 * when there is no next attempt. `random` is in [0, 1).
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
  if (asked !== null && asked <= MAX_RETRY_AFTER_MS) return Math.max(jittered, asked);
  return jittered;
}
