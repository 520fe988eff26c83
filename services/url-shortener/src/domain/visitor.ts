import { createHmac } from "node:crypto";

/**
 * A visitor fingerprint that stores no IP address: HMAC-SHA256 of the link, the client address and the user
 * agent under a salt that changes every UTC day and is deleted afterwards. The same visitor gets the same
 * fingerprint for one link within a day; across days or links the fingerprints cannot be joined.
 */
export function visitorFingerprint(salt: Uint8Array, linkId: number, ip: string, userAgent: string): string {
  return createHmac("sha256", salt).update(`${linkId}\n${ip}\n${userAgent}`).digest("base64url").slice(0, 22);
}

/** The UTC calendar day of an instant, as YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export const DAY_MS = 86_400_000;

/** utcDay for epoch milliseconds, remembering the last day seen: a batch's clicks nearly all fall on one day. */
export class UtcDays {
  private start = 0;
  private end = 0;
  private day = "";

  of(epochMs: number): string {
    if (epochMs < this.start || epochMs >= this.end) {
      this.start = Math.floor(epochMs / DAY_MS) * DAY_MS;
      this.end = this.start + DAY_MS;
      this.day = utcDay(new Date(this.start));
    }
    return this.day;
  }
}
