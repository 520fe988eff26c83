import type { HeaderEntry } from "../domain/captured-request.js";
import type { Queryable } from "@apiplat/storage";

/** A claimed delivery with everything needed to send it. */
export interface DeliveryJob {
  delivery_id: number;
  request_id: string;
  destination_url: string;
  attempt: number;
  method: string;
  path: string;
  query_string: string;
  headers: HeaderEntry[];
  /** Null when the body is kept in parts beside the capture (read it with readBodyParts). */
  body: Uint8Array | null;
  signing_secret: string;
  previous_signing_secret: string | null;
  previous_secret_expires_at: Date | null;
  has_basic_auth: boolean;
}

/**
 * Claims up to `limit` due deliveries for this worker until `lockedUntil`. SKIP LOCKED lets several
 * processes poll the same table without handing one delivery to two of them; a worker that dies
 * mid-delivery releases its claim when the lock time passes (a live one renews it: extendDeliveryClaims).
 */
export async function claimDueDeliveries(db: Queryable, now: Date, lockedUntil: Date, limit: number): Promise<DeliveryJob[]> {
  const { rows } = await db.query<Omit<DeliveryJob, "body"> & { body_hex: string | null }>(
    `WITH due AS (
       SELECT id FROM webhook_deliveries
       WHERE state = 'pending' AND next_attempt_at <= $1 AND (locked_until IS NULL OR locked_until <= $1)
       ORDER BY next_attempt_at LIMIT $3
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE webhook_deliveries d SET locked_until = $2, attempts = d.attempts + 1, updated_at = $1
       FROM due WHERE d.id = due.id
       RETURNING d.id, d.request_id, d.inbox_id, d.destination_url, d.attempts
     )
     SELECT c.id AS delivery_id, c.request_id, c.destination_url, c.attempts AS attempt,
       r.method, r.path, r.query_string, r.headers, encode(r.body, 'hex') AS body_hex,
       i.signing_secret, i.previous_signing_secret, i.previous_secret_expires_at,
       (i.basic_auth_username IS NOT NULL) AS has_basic_auth
     FROM claimed c
     JOIN webhook_requests r ON r.id = c.request_id
     JOIN webhook_inboxes i ON i.id = c.inbox_id`,
    [now, lockedUntil, limit],
  );
  return rows.map(({ body_hex, ...job }) => ({ ...job, body: body_hex === null ? null : Buffer.from(body_hex, "hex") }));
}

/** Renews this worker's claims on deliveries it is still working on (those still pending). */
export async function extendDeliveryClaims(db: Queryable, deliveryIds: readonly number[], lockedUntil: Date): Promise<void> {
  await db.query("UPDATE webhook_deliveries SET locked_until = $2 WHERE id = ANY($1::bigint[]) AND state = 'pending' AND locked_until IS NOT NULL", [
    deliveryIds,
    lockedUntil,
  ]);
}

interface AttemptRecord {
  requestId: string;
  kind: "forward" | "replay";
  attempt: number;
  url: string;
  startedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  nextAttemptAt: Date | null;
}

/** What an attempt records of the request it sent. */
export type AttemptOutcome = Pick<AttemptRecord, "url" | "startedAt" | "statusCode" | "latencyMs" | "error" | "responseBody">;

function attemptParams(a: AttemptRecord): unknown[] {
  return [a.requestId, a.kind, a.attempt, a.url, a.startedAt, a.statusCode, a.latencyMs, a.error, a.responseBody, a.nextAttemptAt];
}

export interface FinishedDelivery {
  deliveryId: number;
  attempt: AttemptRecord;
  state: "pending" | "succeeded" | "failed";
  now: Date;
}

const FINISH_CASTS = ["bigint", "uuid", "text", "int", "text", "timestamptz", "int", "int", "text", "text", "timestamptz", "text", "timestamptz"];

/**
 * Records forwarding attempts and moves their deliveries on (to a retry time, or done), several in one
 * statement. A delivery cancelled meanwhile keeps its state; the attempt is still recorded.
 */
export async function finishDeliveryAttempts(db: Queryable, items: FinishedDelivery[]): Promise<void> {
  const rows = items.map((_, row) => `(${FINISH_CASTS.map((cast, column) => `$${row * FINISH_CASTS.length + column + 1}::${cast}`).join(", ")})`);
  const params = items.flatMap((f) => [f.deliveryId, ...attemptParams(f.attempt), f.state, f.now]);
  await db.query(
    `WITH input (delivery_id, request_id, kind, attempt, url, started_at, status_code, latency_ms, error, response_body, next_attempt_at, state, now) AS (
       VALUES ${rows.join(", ")}
     ), recorded AS (
       INSERT INTO webhook_attempts (request_id, kind, attempt, url, started_at, status_code, latency_ms, error, response_body, next_attempt_at)
       SELECT request_id, kind, attempt, url, started_at, status_code, latency_ms, error, response_body, next_attempt_at FROM input
     )
     UPDATE webhook_deliveries d
     SET state = input.state, next_attempt_at = input.next_attempt_at, locked_until = NULL, updated_at = input.now
     FROM input WHERE d.id = input.delivery_id AND d.state = 'pending'`,
    params,
  );
}

/** Records a replay; its number counts the request's replays (1, 2, ...). */
export async function recordReplayAttempt(db: Queryable, a: AttemptOutcome & { requestId: string }): Promise<number> {
  const { rows } = await db.query<{ attempt: number }>(
    `INSERT INTO webhook_attempts (request_id, kind, attempt, url, started_at, status_code, latency_ms, error, response_body)
     SELECT $1, 'replay', (SELECT count(*)::int + 1 FROM webhook_attempts WHERE request_id = $1 AND kind = 'replay'), $2, $3, $4, $5, $6, $7
     RETURNING attempt`,
    [a.requestId, a.url, a.startedAt, a.statusCode, a.latencyMs, a.error, a.responseBody],
  );
  return rows[0].attempt;
}

export interface AttemptRow {
  request_id: string;
  kind: "forward" | "replay";
  attempt: number;
  url: string;
  started_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
  next_attempt_at: Date | null;
}

export async function attemptsOf(db: Queryable, requestId: string): Promise<AttemptRow[]> {
  const { rows } = await db.query<AttemptRow>(
    `SELECT request_id, kind, attempt, url, started_at, status_code, latency_ms, error, response_body, next_attempt_at
     FROM webhook_attempts WHERE request_id = $1 ORDER BY id`,
    [requestId],
  );
  return rows;
}
