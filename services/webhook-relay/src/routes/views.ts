import { parseQueryString, renderBody } from "../domain/captured-request.js";
import { isPrivate } from "../domain/privacy.js";
import type { InboxRow } from "../store/inboxes.js";
import type { AttemptRow } from "../store/deliveries.js";
import type { RequestRow } from "../store/requests.js";

export function hookUrl(hooksUrl: string, inboxId: string): string {
  return `${hooksUrl.replace(/(?<!\/)\/+$/, "")}/${inboxId}`;
}

/** What anyone allowed to read an inbox sees. */
export function publicInboxView(inbox: InboxRow, hooksUrl: string) {
  return {
    id: inbox.id,
    hook_url: hookUrl(hooksUrl, inbox.id),
    created_at: inbox.created_at.toISOString(),
    expires_at: inbox.expires_at.toISOString(),
  };
}

/** The owner's view: settings too (never the password, never the signing secret). */
export function ownerInboxView(inbox: InboxRow, hooksUrl: string) {
  return {
    ...publicInboxView(inbox, hooksUrl),
    default_response:
      inbox.response_status === null
        ? null
        : { status: inbox.response_status, body: inbox.response_body ?? "", content_type: inbox.response_content_type ?? "" },
    cors: inbox.cors,
    private: isPrivate(inbox),
    basic_auth: inbox.basic_auth_username === null ? null : { username: inbox.basic_auth_username },
    ip_allowlist: inbox.ip_allowlist,
    forward_url: inbox.forward_url,
    max_requests: inbox.max_requests,
    max_stored_bytes: inbox.max_stored_bytes,
  };
}

export function forwardingView(inbox: InboxRow, now: Date) {
  const previousValid = inbox.previous_signing_secret !== null && inbox.previous_secret_expires_at !== null && inbox.previous_secret_expires_at > now;
  return {
    inbox_id: inbox.id,
    url: inbox.forward_url,
    signing_secret: inbox.signing_secret,
    previous_secret_expires_at: previousValid ? inbox.previous_secret_expires_at!.toISOString() : null,
  };
}

/** Where and how a capture was forwarded: the owner's only (the destination URL may carry a secret). */
export function deliveryView(row: RequestRow) {
  if (row.delivery_state === null) return null;
  return {
    state: row.delivery_state,
    url: row.delivery_url,
    attempts: row.delivery_attempts,
    next_attempt_at: row.delivery_next_attempt_at?.toISOString() ?? null,
  };
}

/** A capture as anyone allowed to read the inbox sees it: what the sender sent, nothing of the owner's forwarding. */
export function captureView(row: RequestRow) {
  const rendered = row.body === null ? { body: null, body_encoding: null } : renderBody(row.body);
  return {
    id: row.id,
    inbox_id: row.inbox_id,
    received_at: row.received_at.toISOString(),
    method: row.method,
    path: row.path,
    query: parseQueryString(row.query_string),
    query_string: row.query_string,
    headers: row.headers,
    content_type: row.content_type,
    body_size: row.body_size,
    ...rendered,
    body_omitted: row.body === null,
    source_ip: row.source_ip,
  };
}

/** The owner also sees the capture's forwarding state; other readers see the capture only. */
export function requestView(row: RequestRow, owner: boolean) {
  return owner ? { ...captureView(row), forwarding: deliveryView(row) } : captureView(row);
}

export function attemptView(a: AttemptRow) {
  return {
    kind: a.kind,
    attempt: a.attempt,
    url: a.url,
    started_at: a.started_at.toISOString(),
    status_code: a.status_code,
    latency_ms: a.latency_ms,
    error: a.error,
    response_body: a.response_body,
    next_attempt_at: a.next_attempt_at?.toISOString() ?? null,
  };
}
