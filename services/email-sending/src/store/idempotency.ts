import type { Queryable } from "@apiplat/storage";

/** Keys are remembered this long, as Stripe-style APIs do. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

type Reservation =
  | { kind: "reserved" }
  | { kind: "replay"; requestHash: string; statusCode: number; response: unknown }
  | { kind: "in_progress"; requestHash: string };

/**
 * Claims a key for this request, or returns what the first request with it stored. A key older than 24 hours is
 * taken over as if new. status_code 0 marks a request still being answered.
 */
export async function reserveKey(db: Queryable, accountId: string, key: string, requestHash: string, now: Date): Promise<Reservation> {
  const expired = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  const { rowCount } = await db.query(
    `INSERT INTO email_idempotency (account_id, key, request_hash, status_code, response, created_at) VALUES ($1, $2, $3, 0, 'null', $4)
     ON CONFLICT (account_id, key) DO UPDATE SET request_hash = EXCLUDED.request_hash, status_code = 0, response = 'null', created_at = EXCLUDED.created_at
     WHERE email_idempotency.created_at <= $5`,
    [accountId, key, requestHash, now, expired],
  );
  if (rowCount === 1) return { kind: "reserved" };
  const { rows } = await db.query<{ request_hash: string; status_code: number; response: unknown }>(
    "SELECT request_hash, status_code, response FROM email_idempotency WHERE account_id = $1 AND key = $2",
    [accountId, key],
  );
  const row = rows[0];
  if (!row) return reserveKey(db, accountId, key, requestHash, now);
  if (row.status_code === 0) return { kind: "in_progress", requestHash: row.request_hash };
  return { kind: "replay", requestHash: row.request_hash, statusCode: row.status_code, response: row.response };
}

export async function completeKey(db: Queryable, accountId: string, key: string, statusCode: number, response: unknown): Promise<void> {
  await db.query("UPDATE email_idempotency SET status_code = $3, response = $4 WHERE account_id = $1 AND key = $2", [
    accountId,
    key,
    statusCode,
    JSON.stringify(response),
  ]);
}

/** A request that failed before it was answered: the key is free again (errors are not replayed). */
export async function releaseKey(db: Queryable, accountId: string, key: string): Promise<void> {
  await db.query("DELETE FROM email_idempotency WHERE account_id = $1 AND key = $2 AND status_code = 0", [accountId, key]);
}
