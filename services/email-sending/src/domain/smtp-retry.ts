/** How an SMTP failure is classified and when a temporary one is tried again. */

export interface SmtpFailure {
  /** The relay's reply code (421, 450, 550...) or undefined for a connection-level failure. */
  responseCode?: number;
  /** nodemailer's error code (ECONNECTION, ETIMEDOUT, EENVELOPE...). */
  code?: string;
  message: string;
}

/** 5xx replies are permanent; 4xx replies and every failure without a reply (connection, timeout, TLS) are temporary. */
export function isPermanent(failure: SmtpFailure): boolean {
  return failure.responseCode !== undefined && failure.responseCode >= 500 && failure.responseCode < 600;
}

const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;
const RETRY_JITTER_FRACTION = 0.2;

/**
 * The wait after the `attempt`-th failure (1-based): base × 2^(attempt-1), capped at one hour, moved by up to 20%
 * either way (`random` in [0, 1)) so that a relay's outage does not come back as one burst.
 */
export function retryDelayMs(attempt: number, baseMs: number, random: number): number {
  const raw = Math.min(baseMs * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);
  return Math.round(raw * (1 - RETRY_JITTER_FRACTION + 2 * RETRY_JITTER_FRACTION * random));
}

/** Null when the window for retries is over (the message then bounces soft). */
export function nextAttemptAt(firstAttemptAt: Date, now: Date, attempt: number, baseMs: number, windowMs: number, random: number): Date | null {
  const at = new Date(now.getTime() + retryDelayMs(attempt, baseMs, random));
  return at.getTime() - firstAttemptAt.getTime() > windowMs ? null : at;
}
