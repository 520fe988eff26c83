import { randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PlatformConfig } from "@apiplat/config";

/** Where the local start writes a generated admin token, for the CLI to find. */
export const LOCAL_TOKEN_FILE = path.resolve(".data/admin-token");

/**
 * ADMIN_TOKEN from the environment. Only a local start (no DATABASE_URL) may do without: it gets a
 * random token, printed once and written to .data/admin-token (mode 600) for the CLI.
 */
export function resolveAdminToken(config: PlatformConfig): { token: string; generated: boolean } {
  if (config.adminToken) return { token: config.adminToken, generated: false };
  if (config.databaseUrl) throw new Error("ADMIN_TOKEN must be set when DATABASE_URL is (a deployment, not a local start)");
  const token = randomBytes(24).toString("base64url");
  mkdirSync(path.dirname(LOCAL_TOKEN_FILE), { recursive: true });
  writeFileSync(LOCAL_TOKEN_FILE, token + "\n", { mode: 0o600 });
  return { token, generated: true };
}

/** Whether an Authorization header carries the admin token (compared in constant time). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  // RFC 9110: the scheme name is case-insensitive ("bearer", "BEARER").
  const given = Buffer.from(/^bearer +(.*)$/i.exec(header ?? "")?.[1] ?? "");
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
