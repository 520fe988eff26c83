export const CODE_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const DEFAULT_CODE_LENGTH = 7;
export const ALIAS_MIN_LENGTH = 3;
export const ALIAS_MAX_LENGTH = 64;
export const ALIAS_PATTERN = "^[A-Za-z0-9_-]+$";

/**
 * Words a code may not take, compared case-insensitively: the service's own paths (so a code never
 * shadows an endpoint) and names that users would take for the service itself.
 */
const RESERVED_CODES: ReadonlySet<string> = new Set([
  "api",
  "admin",
  "administrator",
  "stats",
  "shorten",
  "bulk",
  "resolve",
  "links",
  "link",
  "settings",
  "domains",
  "domain",
  "health",
  "ready",
  "metrics",
  "docs",
  "openapi",
  "openapi.json",
  "static",
  "assets",
  "public",
  "favicon.ico",
  "robots.txt",
  "login",
  "logout",
  "signup",
  "register",
  "account",
  "dashboard",
  "help",
  "support",
  "about",
  "terms",
  "privacy",
  "www",
  "root",
  "system",
  "status",
  "null",
  "undefined",
  "_next",
]);

export function isReservedCode(code: string): boolean {
  return RESERVED_CODES.has(code.toLowerCase());
}

/**
 * Uniformly random base62 code from `random`'s bytes (crypto.randomBytes in production, drawn by the caller so that
 * domain/ stays deterministic): bytes >= 248 are rejected so that no character is favoured.
 */
export function generateCode(length: number, random: (bytes: number) => Buffer): string {
  let code = "";
  while (code.length < length) {
    for (const byte of random(length * 2)) {
      if (byte >= 248) continue;
      code += CODE_ALPHABET[byte % 62];
      if (code.length === length) break;
    }
  }
  return code;
}

/** A code that can be looked up at all: the shape of an alias or of a generated code. */
export function isPlausibleCode(code: string): boolean {
  return code.length >= ALIAS_MIN_LENGTH && code.length <= ALIAS_MAX_LENGTH && /^[A-Za-z0-9_-]+$/.test(code);
}
