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
