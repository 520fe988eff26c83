import { hash, randomBytes } from "node:crypto";

const KEY_PREFIX = "gk_";
const KEY_RANDOM_BYTES = 24;

/** A new API key: "gk_" + 32 base64url characters (192 random bits). */
export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(KEY_RANDOM_BYTES).toString("base64url");
}

/** SHA-256 hex of the key; the one-shot crypto.hash is about three times cheaper than a Hash object. */
export function hashApiKey(key: string): string {
  return hash("sha256", key, "hex");
}

/** What an operator may see of a key: "gk_AbCd…". */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 4);
}
