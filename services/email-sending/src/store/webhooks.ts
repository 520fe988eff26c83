import type { Queryable } from "@apiplat/storage";

export interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  event_types: string[];
  secret: string;
  created_at: Date;
}

export async function insertWebhook(db: Queryable, row: WebhookRow): Promise<void> {
  await db.query("INSERT INTO email_webhooks (id, account_id, url, event_types, secret, created_at) VALUES ($1, $2, $3, $4, $5, $6)", [
    row.id,
    row.account_id,
    row.url,
    row.event_types,
    row.secret,
    row.created_at,
  ]);
}

export async function listWebhooks(db: Queryable, accountId: string): Promise<WebhookRow[]> {
  const { rows } = await db.query<WebhookRow>("SELECT * FROM email_webhooks WHERE account_id = $1 ORDER BY created_at, id", [accountId]);
  return rows;
}

export async function findWebhook(db: Queryable, accountId: string, id: string): Promise<WebhookRow | null> {
  const { rows } = await db.query<WebhookRow>("SELECT * FROM email_webhooks WHERE account_id = $1 AND id = $2", [accountId, id]);
  return rows[0] ?? null;
}

export async function deleteWebhook(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM email_webhooks WHERE account_id = $1 AND id = $2", [accountId, id]);
  return rowCount === 1;
}

interface WebhookDeliveryJob {
  id: string;
  webhook_id: string;
  url: string;
  secret: string;
  payload: string;
  attempts: number;
}

export async function claimWebhookDeliveries(db: Queryable, now: Date, leaseMs: number, limit: number): Promise<WebhookDeliveryJob[]> {
  const { rows } = await db.query<WebhookDeliveryJob>(
    `WITH due AS (
       SELECT id FROM email_webhook_deliveries WHERE state = 'waiting' AND next_attempt_at <= $1
        ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED),
     leased AS (
       UPDATE email_webhook_deliveries d SET state = 'leased', lease_until = $2, attempts = d.attempts + 1
         FROM due WHERE d.id = due.id RETURNING d.id, d.webhook_id, d.payload, d.attempts)
     SELECT l.id, l.webhook_id, w.url, w.secret, l.payload, l.attempts FROM leased l JOIN email_webhooks w ON w.id = l.webhook_id`,
    [now, new Date(now.getTime() + leaseMs), limit],
  );
  return rows;
}

export async function releaseExpiredWebhookLeases(db: Queryable, now: Date): Promise<void> {
  await db.query("UPDATE email_webhook_deliveries SET state = 'waiting', lease_until = NULL WHERE state = 'leased' AND lease_until < $1", [now]);
}

/** After an attempt: done, failed for good, or waiting for `nextAttemptAt`. */
export async function finishWebhookAttempt(
  db: Queryable,
  id: string,
  outcome: { state: "delivered" | "failed" | "waiting"; nextAttemptAt?: Date; status: number | null; error: string | null },
): Promise<void> {
  await db.query(
    `UPDATE email_webhook_deliveries SET state = $2, next_attempt_at = COALESCE($3, next_attempt_at), last_status = $4, last_error = $5, lease_until = NULL
      WHERE id = $1`,
    [id, outcome.state, outcome.nextAttemptAt ?? null, outcome.status, outcome.error],
  );
}

interface WebhookDeliveryView {
  id: string;
  state: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Date;
  created_at: Date;
}

export async function recentDeliveries(db: Queryable, webhookId: string, limit: number): Promise<WebhookDeliveryView[]> {
  const { rows } = await db.query<WebhookDeliveryView>(
    `SELECT id, state, attempts, last_status, last_error, next_attempt_at, created_at FROM email_webhook_deliveries
      WHERE webhook_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
    [webhookId, limit],
  );
  return rows;
}
