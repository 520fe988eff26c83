import type { HeaderEntry } from "../domain/captured-request.js";
import type { Queryable } from "@apiplat/storage";

export interface NewCapture {
  id: string;
  inboxId: string;
  receivedAt: Date;
  method: string;
  path: string;
  queryString: string;
  headers: HeaderEntry[];
  body: Buffer;
  contentType: string | null;
  sourceIp: string;
}

export interface RequestRow {
  seq: number;
  id: string;
  inbox_id: string;
  received_at: Date;
  method: string;
  path: string;
  query_string: string;
  headers: HeaderEntry[];
  /** Null when the body is larger than the inline limit of the query (or kept in parts beside the row). */
  body: Uint8Array | null;
  body_size: number;
  content_type: string | null;
  source_ip: string;
  delivery_state: string | null;
  delivery_attempts: number | null;
  delivery_next_attempt_at: Date | null;
  delivery_url: string | null;
}

export interface CaptureToStore {
  capture: NewCapture;
  /** The inbox's destination at capture time; null when it does not forward. */
  forwardUrl: string | null;
  /** Set when this process sends the first attempt itself: the delivery is stored already claimed until then. */
  claimedUntil: Date | null;
  /** The inbox owner's account, whose storage the capture uses. */
  accountId: string;
  /** What the capture counts against the account's quota. */
  storedBytes: number;
  /** The account's quota as the inbox knows it. */
  quotaBytes: number;
  /** False when the body is kept in parts beside the row (store/bodies.ts): the row's body stays NULL. */
  bodyInRow: boolean;
}

export interface StoredCapture {
  id: string;
  /** Null when the capture was refused because the account's storage quota could not hold it. */
  seq: number | null;
  queued: boolean;
  /** The delivery job's id when one was queued. */
  delivery_id: number | null;
}

/** One VALUES row; "$" is the column's parameter. The body goes as hex text, for the reason given in store/bodies.ts. */
const CAPTURE_PLACEHOLDERS = [
  "$::uuid",
  "$::uuid",
  "$::timestamptz",
  "$::text",
  "$::text",
  "$::text",
  "$::jsonb",
  "decode($::text, 'hex')",
  "$::int",
  "$::text",
  "$::text",
  "$::text",
  "$::timestamptz",
  "$::text",
  "$::bigint",
  "$::bigint",
];
const CAPTURE_COLUMNS = CAPTURE_PLACEHOLDERS.length;

function captureParams({ capture, forwardUrl, claimedUntil, accountId, storedBytes, quotaBytes, bodyInRow }: CaptureToStore): unknown[] {
  return [
    capture.id,
    capture.inboxId,
    capture.receivedAt,
    capture.method,
    capture.path,
    capture.queryString,
    JSON.stringify(capture.headers),
    bodyInRow ? capture.body.toString("hex") : null,
    capture.body.length,
    capture.contentType,
    capture.sourceIp,
    forwardUrl,
    claimedUntil,
    accountId,
    storedBytes,
    quotaBytes,
  ];
}

/**
 * Stores captures and, for those whose inbox forwards, their delivery jobs, in one statement (one
 * round trip, one transaction): a capture is never stored without its job or the reverse. Each
 * account's captures in the batch are stored only if its stored bytes stay within its quota, which the
 * same statement raises (a refused capture comes back with seq null and leaves nothing behind).
 */
export async function insertCaptures(db: Queryable, items: CaptureToStore[]): Promise<StoredCapture[]> {
  const rows = items.map((_, row) => {
    const placeholders = CAPTURE_PLACEHOLDERS.map((template, column) => template.replace("$", `$${row * CAPTURE_COLUMNS + column + 1}`));
    return `(${placeholders.join(", ")})`;
  });
  const { rows: stored } = await db.query<StoredCapture>(
    `WITH input (id, inbox_id, received_at, method, path, query_string, headers, body, body_size, content_type, source_ip, forward_url,
         claimed_until, account_id, stored_bytes, quota_bytes) AS (
       VALUES ${rows.join(", ")}
     ), wanted AS (
       SELECT account_id, sum(stored_bytes)::bigint AS bytes, min(quota_bytes) AS quota FROM input GROUP BY account_id
     ), reserved AS (
       INSERT INTO webhook_account_storage AS s (account_id, stored_bytes)
       SELECT account_id, bytes FROM wanted WHERE bytes <= quota
       ON CONFLICT (account_id) DO UPDATE SET stored_bytes = s.stored_bytes + excluded.stored_bytes
       WHERE s.stored_bytes + excluded.stored_bytes <= (SELECT quota FROM wanted WHERE wanted.account_id = excluded.account_id)
       RETURNING account_id
     ), captured AS (
       INSERT INTO webhook_requests (id, inbox_id, received_at, method, path, query_string, headers, body, body_size, content_type, source_ip,
         account_id, stored_bytes)
       SELECT id, inbox_id, received_at, method, path, query_string, headers, body, body_size, content_type, source_ip, account_id, stored_bytes
       FROM input WHERE account_id IN (SELECT account_id FROM reserved)
       RETURNING seq, id
     ), queued AS (
       INSERT INTO webhook_deliveries (request_id, inbox_id, destination_url, state, attempts, next_attempt_at, locked_until, created_at, updated_at)
       SELECT input.id, input.inbox_id, input.forward_url, 'pending', CASE WHEN input.claimed_until IS NULL THEN 0 ELSE 1 END,
         input.received_at, input.claimed_until, input.received_at, input.received_at
       FROM input JOIN captured ON captured.id = input.id
       WHERE input.forward_url IS NOT NULL
       RETURNING id, request_id
     )
     SELECT input.id, captured.seq, queued.id IS NOT NULL AS queued, queued.id AS delivery_id
     FROM input LEFT JOIN captured ON captured.id = input.id LEFT JOIN queued ON queued.request_id = input.id`,
    items.flatMap(captureParams),
  );
  return stored;
}

export interface RequestFilters {
  method?: string;
  since?: Date;
  until?: Date;
  /** Case-sensitive text contained in a body kept in the row (up to 64 KiB, as UTF-8) or in any header value. */
  contains?: string;
}

/** A row as selected: the body as hex text, which Buffer decodes natively (store/bodies.ts says why). */
type SelectedRow = Omit<RequestRow, "body"> & { body_hex: string | null };

function withBody({ body_hex, ...row }: SelectedRow): RequestRow {
  return { ...row, body: body_hex === null ? null : Buffer.from(body_hex, "hex") };
}

const DELIVERY_COLUMNS = `d.state AS delivery_state, d.attempts AS delivery_attempts,
  d.next_attempt_at AS delivery_next_attempt_at, d.destination_url AS delivery_url`;

export async function listRequests(
  db: Queryable,
  inboxId: string,
  filters: RequestFilters,
  limit: number,
  beforeSeq: number | null,
  inlineBodyMax: number,
): Promise<RequestRow[]> {
  const { rows } = await db.query<SelectedRow>(
    `SELECT r.seq, r.id, r.inbox_id, r.received_at, r.method, r.path, r.query_string, r.headers,
       CASE WHEN r.body_size <= $8 THEN encode(r.body, 'hex') END AS body_hex, r.body_size, r.content_type, r.source_ip, ${DELIVERY_COLUMNS}
     FROM webhook_requests r LEFT JOIN webhook_deliveries d ON d.request_id = r.id
     WHERE r.inbox_id = $1
       AND ($2::bigint IS NULL OR r.seq < $2)
       AND ($3::text IS NULL OR r.method = $3)
       AND ($4::timestamptz IS NULL OR r.received_at >= $4)
       AND ($5::timestamptz IS NULL OR r.received_at < $5)
       AND ($6::text IS NULL
            OR position(convert_to($6::text, 'UTF8') IN r.body) > 0
            OR EXISTS (SELECT 1 FROM jsonb_array_elements(r.headers) h WHERE strpos(h->>'value', $6::text) > 0))
     ORDER BY r.seq DESC LIMIT $7`,
    [inboxId, beforeSeq, filters.method ?? null, filters.since ?? null, filters.until ?? null, filters.contains ?? null, limit, inlineBodyMax],
  );
  return rows.map(withBody);
}

export async function findRequest(db: Queryable, inboxId: string, requestId: string): Promise<RequestRow | null> {
  const { rows } = await db.query<SelectedRow>(
    `SELECT r.seq, r.id, r.inbox_id, r.received_at, r.method, r.path, r.query_string, r.headers, encode(r.body, 'hex') AS body_hex, r.body_size,
       r.content_type, r.source_ip, ${DELIVERY_COLUMNS}
     FROM webhook_requests r LEFT JOIN webhook_deliveries d ON d.request_id = r.id
     WHERE r.inbox_id = $1 AND r.id = $2`,
    [inboxId, requestId],
  );
  return rows.length === 0 ? null : withBody(rows[0]);
}

/** Captures after `afterSeq`, oldest first: what an SSE client resuming with Last-Event-ID missed. */
export async function requestsAfter(db: Queryable, inboxId: string, afterSeq: number, limit: number, inlineBodyMax: number): Promise<RequestRow[]> {
  const { rows } = await db.query<SelectedRow>(
    `SELECT r.seq, r.id, r.inbox_id, r.received_at, r.method, r.path, r.query_string, r.headers,
       CASE WHEN r.body_size <= $4 THEN encode(r.body, 'hex') END AS body_hex, r.body_size, r.content_type, r.source_ip, ${DELIVERY_COLUMNS}
     FROM webhook_requests r LEFT JOIN webhook_deliveries d ON d.request_id = r.id
     WHERE r.inbox_id = $1 AND r.seq > $2
     ORDER BY r.seq ASC LIMIT $3`,
    [inboxId, afterSeq, limit, inlineBodyMax],
  );
  return rows.map(withBody);
}
