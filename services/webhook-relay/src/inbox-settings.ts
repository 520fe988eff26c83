import { errors } from "@apiplat/service-kit";
import { protectCredentials } from "./domain/basic-auth.js";
import { normalizeAllowlistEntry } from "./domain/ip-allowlist.js";
import type { InboxSettingsInput } from "./schemas.js";
import type { InboxSettingsChange } from "./store/inboxes.js";

export const DEFAULT_CONTENT_TYPE = "text/plain; charset=utf-8";

function normalizeAllowlist(entries: string[]): string[] {
  return entries.map((entry, i) => {
    const normalized = normalizeAllowlistEntry(entry);
    if (normalized === null) throw errors.validation(`ip_allowlist.${i}`, "must be an IPv4 or IPv6 address or CIDR range");
    return normalized;
  });
}

/** Validated API input -> what is stored (the password only as a salted digest). */
export function settingsChange(input: InboxSettingsInput): InboxSettingsChange {
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
  if (input.basic_auth !== undefined) change.basicAuth = input.basic_auth === null ? null : protectCredentials(input.basic_auth);
  if (input.ip_allowlist !== undefined) change.ipAllowlist = normalizeAllowlist(input.ip_allowlist);
  return change;
}
