import { randomBytes } from "node:crypto";
import { errors } from "@apiplat/service-kit";
import { SALT_BYTES, protectCredentials } from "../domain/basic-auth.js";
import { normalizeAllowlistEntry } from "../domain/ip-allowlist.js";
import { textProblem } from "../domain/text.js";
import type { InboxSettingsInput } from "../schemas.js";
import type { InboxSettingsChange } from "../store/inboxes.js";

const DEFAULT_CONTENT_TYPE = "text/plain; charset=utf-8";

function normalizeAllowlist(entries: string[]): string[] {
  return entries.map((entry, i) => {
    const normalized = normalizeAllowlistEntry(entry);
    if (normalized === null) throw errors.validation(`ip_allowlist[${i}]`, "must be an IPv4 or IPv6 address or CIDR range");
    return normalized;
  });
}

/** A 400 naming the field when a string cannot be stored as text (NUL, unpaired surrogate). */
export function requireStorableText(value: string | undefined | null, field: string): void {
  const problem = value === undefined || value === null ? null : textProblem(value);
  if (problem !== null) throw errors.validation(field, problem);
}

function requireStorableSettings(input: InboxSettingsInput): void {
  requireStorableText(input.default_response?.body, "default_response.body");
  requireStorableText(input.basic_auth?.username, "basic_auth.username");
  // The password is only hashed, but its UTF-8 bytes must be the ones the sender will send.
  requireStorableText(input.basic_auth?.password, "basic_auth.password");
}

/** Validated API input -> what is stored (the password only as a salted digest). */
export function settingsChange(input: InboxSettingsInput): InboxSettingsChange {
  requireStorableSettings(input);
  const change: InboxSettingsChange = {};
  if (input.default_response !== undefined) {
    change.defaultResponse =
      input.default_response === null
        ? null
        : {
            status: input.default_response.status,
            body: input.default_response.body ?? "",
            content_type: input.default_response.content_type ?? DEFAULT_CONTENT_TYPE,
          };
  }
  if (input.cors !== undefined) change.cors = input.cors;
  if (input.basic_auth !== undefined) change.basicAuth = input.basic_auth === null ? null : protectCredentials(input.basic_auth, randomBytes(SALT_BYTES));
  if (input.ip_allowlist !== undefined) change.ipAllowlist = normalizeAllowlist(input.ip_allowlist);
  return change;
}
