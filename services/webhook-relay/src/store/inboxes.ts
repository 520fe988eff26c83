import type { StoredBasicAuth } from "../domain/basic-auth.js";
import type { Queryable } from "@apiplat/storage";

export interface InboxRow {
  id: string;
  seq: number;
  account_id: string;
  created_at: Date;
  expires_at: Date;
  response_status: number | null;
  response_body: string | null;
  response_content_type: string | null;
  cors: boolean;
  basic_auth_username: string | null;
  basic_auth_salt: Uint8Array | null;
  basic_auth_hash: Uint8Array | null;
  ip_allowlist: string[];
  forward_url: string | null;
  signing_secret: string;
  max_requests: number;
  /** The owner's storage quota in bytes, from its plan when the inbox was made. */
  max_stored_bytes: number;
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | null;
}

export interface DefaultResponse {
  status: number;
  body: string;
  content_type: string;
}

/** Settings as stored; `undefined` leaves a field unchanged on update, `null` clears it. */
export interface InboxSettingsChange {
  defaultResponse?: DefaultResponse | null;
  cors?: boolean;
  basicAuth?: StoredBasicAuth | null;
  ipAllowlist?: string[];
}

interface NewInbox {
  id: string;
  accountId: string;
  createdAt: Date;
  expiresAt: Date;
  maxRequests: number;
  maxStoredBytes: number;
  signingSecret: string;
  settings: InboxSettingsChange;
}

const COLUMNS = `id, seq, account_id, created_at, expires_at, response_status, response_body, response_content_type, cors,
  basic_auth_username, basic_auth_salt, basic_auth_hash, ip_allowlist, forward_url, signing_secret, max_requests,
  max_stored_bytes, previous_signing_secret, previous_secret_expires_at`;

export async function insertInbox(db: Queryable, inbox: NewInbox): Promise<InboxRow> {
  const s = inbox.settings;
  const { rows } = await db.query<InboxRow>(
    `INSERT INTO webhook_inboxes (id, account_id, created_at, expires_at, response_status, response_body,
       response_content_type, cors, basic_auth_username, basic_auth_salt, basic_auth_hash, ip_allowlist, signing_secret, max_requests, max_stored_bytes)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::text[], $13, $14, $15)
     RETURNING ${COLUMNS}`,
    [
      inbox.id,
      inbox.accountId,
      inbox.createdAt,
      inbox.expiresAt,
      s.defaultResponse?.status ?? null,
      s.defaultResponse?.body ?? null,
      s.defaultResponse?.content_type ?? null,
      s.cors ?? true,
      s.basicAuth?.username ?? null,
      s.basicAuth?.salt ?? null,
      s.basicAuth?.hash ?? null,
      s.ipAllowlist ?? [],
      inbox.signingSecret,
      inbox.maxRequests,
      inbox.maxStoredBytes,
    ],
  );
  return rows[0];
}

/** A live inbox (not yet expired), whoever owns it. */
export async function findLiveInbox(db: Queryable, id: string, now: Date): Promise<InboxRow | null> {
  const { rows } = await db.query<InboxRow>(`SELECT ${COLUMNS} FROM webhook_inboxes WHERE id = $1 AND expires_at > $2`, [id, now]);
  return rows[0] ?? null;
}

export async function countLiveInboxes(db: Queryable, accountId: string, now: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_inboxes WHERE account_id = $1 AND expires_at > $2", [accountId, now]);
  return rows[0].n;
}

export async function listInboxes(db: Queryable, accountId: string, now: Date, limit: number, beforeSeq: number | null): Promise<InboxRow[]> {
  const { rows } = await db.query<InboxRow>(
    `SELECT ${COLUMNS} FROM webhook_inboxes
     WHERE account_id = $1 AND expires_at > $2 AND ($3::bigint IS NULL OR seq < $3)
     ORDER BY seq DESC LIMIT $4`,
    [accountId, now, beforeSeq, limit],
  );
  return rows;
}

export async function updateInboxSettings(db: Queryable, id: string, change: InboxSettingsChange): Promise<InboxRow> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  const set = (column: string, value: unknown, cast = "") => {
    params.push(value);
    sets.push(`${column} = $${params.length}${cast}`);
  };
  if (change.defaultResponse !== undefined) {
    set("response_status", change.defaultResponse?.status ?? null);
    set("response_body", change.defaultResponse?.body ?? null);
    set("response_content_type", change.defaultResponse?.content_type ?? null);
  }
  if (change.cors !== undefined) set("cors", change.cors);
  if (change.basicAuth !== undefined) {
    set("basic_auth_username", change.basicAuth?.username ?? null);
    set("basic_auth_salt", change.basicAuth?.salt ?? null);
    set("basic_auth_hash", change.basicAuth?.hash ?? null);
  }
  if (change.ipAllowlist !== undefined) set("ip_allowlist", change.ipAllowlist, "::text[]");
  const assignments = sets.length > 0 ? sets.join(", ") : "id = id";
  const { rows } = await db.query<InboxRow>(`UPDATE webhook_inboxes SET ${assignments} WHERE id = $1 RETURNING ${COLUMNS}`, params);
  return rows[0];
}

export async function deleteInbox(db: Queryable, id: string): Promise<void> {
  await db.query("DELETE FROM webhook_inboxes WHERE id = $1", [id]);
}

/** Sets or clears the destination; clearing it also cancels deliveries still waiting for a retry. */
export async function setForwardUrl(db: Queryable, id: string, url: string | null, now: Date): Promise<InboxRow> {
  if (url === null) {
    await db.query("UPDATE webhook_deliveries SET state = 'cancelled', next_attempt_at = NULL, updated_at = $2 WHERE inbox_id = $1 AND state = 'pending'", [
      id,
      now,
    ]);
  }
  const { rows } = await db.query<InboxRow>(`UPDATE webhook_inboxes SET forward_url = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [id, url]);
  return rows[0];
}

export async function rotateSigningSecret(db: Queryable, id: string, secret: string, previousValidUntil: Date): Promise<InboxRow> {
  const { rows } = await db.query<InboxRow>(
    `UPDATE webhook_inboxes
     SET previous_signing_secret = signing_secret, previous_secret_expires_at = $3, signing_secret = $2
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, secret, previousValidUntil],
  );
  return rows[0];
}

/** Deletes expired inboxes (their captures, deliveries and attempts go with them), in batches. */
export async function purgeExpiredInboxes(db: Queryable, now: Date, batchSize = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `DELETE FROM webhook_inboxes WHERE id IN (
         SELECT id FROM webhook_inboxes WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)`,
      [now, batchSize],
    );
    total += rowCount;
    if (rowCount < batchSize) return total;
  }
}

/** Deletes each inbox's oldest captures beyond its max_requests; returns how many went. */
export async function trimOverfullInboxes(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `WITH cutoffs AS (
       SELECT i.id,
         (SELECT r.seq FROM webhook_requests r WHERE r.inbox_id = i.id ORDER BY r.seq DESC OFFSET i.max_requests LIMIT 1) AS cutoff
       FROM webhook_inboxes i
     )
     DELETE FROM webhook_requests r USING cutoffs c
     WHERE c.cutoff IS NOT NULL AND r.inbox_id = c.id AND r.seq <= c.cutoff`,
  );
  return rowCount;
}
