import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/** Keys for one purpose each, derived from EMAIL_SECRET, so a link token can never be replayed as another kind. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "email-sending", purpose, 32));
}

const MAC_BYTES = 16;

/** `<base64url payload>.<base64url truncated HMAC-SHA256>`: opaque to readers, unforgeable without the key. */
export function signToken(key: Buffer, payload: unknown): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  const mac = createHmac("sha256", key).update(body).digest().subarray(0, MAC_BYTES).toString("base64url");
  return `${body}.${mac}`;
}

/** The payload of a token signed with `key`, or null for anything altered, truncated or made up. */
export function verifyToken<T>(key: Buffer, token: string): T | null {
  const dot = token.indexOf(".");
  if (dot <= 0 || token.length > 8192) return null;
  const body = token.slice(0, dot);
  // Compared as text: base64 decoding ignores the spare bits of the last character, so two spellings would pass.
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(createHmac("sha256", key).update(body).digest().subarray(0, MAC_BYTES).toString("base64url"));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as T;
  } catch {
    return null;
  }
}
