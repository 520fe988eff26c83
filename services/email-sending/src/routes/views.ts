import { formatMailbox } from "../domain/addresses.js";
import { laneOf } from "../app/submission.js";
import { recordsFor, type PlatformDomains } from "../domain/dns-records.js";
import type * as S from "../schemas.js";
import type { DomainRow } from "../store/domains.js";
import type { EventRow, MessageRow } from "../store/messages.js";
import type { Static } from "typebox";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function messageSummary(row: MessageRow): Static<typeof S.MessageSummary> {
  return {
    id: row.id,
    status: row.status as Static<typeof S.MessageSummary>["status"],
    category: row.category,
    from: formatMailbox({ address: row.from_address, name: row.from_name ?? undefined }),
    to: row.to_addresses.map(formatMailbox),
    cc: row.cc_addresses.map(formatMailbox),
    bcc: row.bcc_addresses.map(formatMailbox),
    subject: row.subject,
    tags: row.tags,
    metadata: row.metadata,
    template: row.template_name ? { name: row.template_name, version: row.template_version ?? 1 } : null,
    submitted_at: row.submitted_at.toISOString(),
    send_at: iso(row.send_at),
    sent_at: iso(row.sent_at),
    attempts: row.attempts,
    next_attempt_at: row.queue_state === "done" ? null : row.next_attempt_at.toISOString(),
    lane: laneOf(row.priority),
  };
}

export function eventView(row: EventRow): Static<typeof S.Event> {
  return { id: row.event_id, type: row.type, at: row.created_at.toISOString(), recipient: row.recipient, detail: row.detail };
}

export function domainView(row: DomainRow, platform: PlatformDomains): Static<typeof S.Domain> {
  return {
    domain: row.domain,
    status: row.verified_at ? "verified" : "pending",
    dkim_selector: row.dkim_selector,
    records: recordsFor({ domain: row.domain, selector: row.dkim_selector, publicKey: row.dkim_public_key }, platform, {
      spf: row.spf_verified,
      dkim: row.dkim_verified,
      returnPath: row.return_path_verified,
    }),
    created_at: row.created_at.toISOString(),
    verified_at: iso(row.verified_at),
    last_checked_at: iso(row.last_checked_at),
  };
}
