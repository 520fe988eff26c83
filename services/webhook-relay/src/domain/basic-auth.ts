import { createHash, timingSafeEqual } from "node:crypto";

/** The length of the random salt the caller draws for protectCredentials. */
export const SALT_BYTES = 16;

interface BasicCredentials {
  username: string;
  password: string;
}

export interface StoredBasicAuth {
  username: string;
  salt: Buffer;
  hash: Buffer;
}

/** Parses "Basic base64(user:pass)"; null when absent or malformed. */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * A salted SHA-256, not a slow password hash: it is checked on every captured request of a private
 * inbox, where a deliberately slow hash would cap capture throughput at a few requests per second.
 */
function digest(password: string, salt: Buffer): Buffer {
  return createHash("sha256").update(salt).update(password, "utf8").digest();
}

export function protectCredentials(credentials: BasicCredentials, salt: Buffer): StoredBasicAuth {
  return { username: credentials.username, salt, hash: digest(credentials.password, salt) };
}

function sameText(a: string, b: string): boolean {
  const left = createHash("sha256").update(a).digest();
  const right = createHash("sha256").update(b).digest();
  return timingSafeEqual(left, right);
}

export function credentialsMatch(given: BasicCredentials | null, stored: StoredBasicAuth): boolean {
  if (!given) return false;
  const userOk = sameText(given.username, stored.username);
  const passwordOk = timingSafeEqual(digest(given.password, stored.salt), stored.hash);
  return userOk && passwordOk;
}
