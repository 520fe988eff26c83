import type { Database, Queryable } from "@apiplat/storage";
import type { Mailbox } from "../domain/addresses.js";
import type { Attachment } from "../domain/message.js";
import { statusAfter } from "../domain/status.js";

export interface MessageRow {
  id: string;
  account_id: string;
  status: string;
  category: "transactional" | "marketing";
  from_address: string;
  from_name: string | null;
  recipients: string[];
  to_addresses: Mailbox[];
  cc_addresses: Mailbox[];
  bcc_addresses: Mailbox[];
  reply_to: Mailbox[];
  subject: string;
  html: string;
  text_body: string;
  headers: Record<string, string>;
  tags: string[];
  metadata: Record<string, string>;
  track_opens: boolean;
  track_clicks: boolean;
  template_name: string | null;
  template_version: number | null;
  has_attachments: boolean;
  submitted_at: Date;
  send_at: Date | null;
  sent_at: Date | null;
  queue_state: "waiting" | "leased" | "done";
  priority: number;
  next_attempt_at: Date;
  lease_until: Date | null;
  attempts: number;
  first_attempt_at: Date | null;
  last_error: string | null;
  /** Recipients still to be handed to the relay; null: all of them. */
  pending_recipients: string[] | null;
}

export interface EventRow {
  event_id: string;
  type: string;
  recipient: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

const INSERT_COLUMNS = [
  "id",
  "account_id",
  "status",
  "category",
  "from_address",
  "from_name",
  "recipients",
  "to_addresses",
  "cc_addresses",
  "bcc_addresses",
  "reply_to",
  "subject",
  "html",
  "text_body",
  "headers",
  "tags",
  "metadata",
  "track_opens",
  "track_clicks",
  "template_name",
  "template_version",
  "has_attachments",
  "submitted_at",
  "send_at",
  "queue_state",
  "priority",
  "next_attempt_at",
] as const;
export type NewMessage = Pick<MessageRow, (typeof INSERT_COLUMNS)[number]>;

const JSON_COLUMNS = new Set(["to_addresses", "cc_addresses", "bcc_addresses", "reply_to", "headers", "metadata"]);

function insertValues(message: NewMessage): unknown[] {
  return INSERT_COLUMNS.map((column) => (JSON_COLUMNS.has(column) ? JSON.stringify(message[column]) : message[column]));
}

/** The message and its first event in one statement: once this returns, the message is durable and queued. */
export async function insertMessage(db: Queryable, message: NewMessage, eventId: string, attachments: Attachment[]): Promise<void> {
  const placeholders = INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(", ");
  const n = INSERT_COLUMNS.length;
  await db.query(
    `WITH m AS (INSERT INTO email_messages (${INSERT_COLUMNS.join(", ")}) VALUES (${placeholders}) RETURNING id)
     INSERT INTO email_events (event_id, message_id, account_id, type, recipient, detail, created_at)
     SELECT $${n + 1}, m.id, $2, $3, NULL, '{}'::jsonb, $23 FROM m`,
    [...insertValues(message), eventId],
  );
  for (const [position, a] of attachments.entries()) {
    await db.query("INSERT INTO email_attachments (message_id, position, filename, content_type, content_id, content) VALUES ($1, $2, $3, $4, $5, $6)", [
      message.id,
      position,
      a.filename,
      a.contentType,
      a.contentId,
      a.content,
    ]);
  }
}

export async function findMessage(db: Queryable, accountId: string, id: string): Promise<MessageRow | null> {
  const { rows } = await db.query<MessageRow>("SELECT * FROM email_messages WHERE id = $1 AND account_id = $2", [id, accountId]);
  return rows[0] ?? null;
}

/** For public paths (tracking, unsubscribe, inbound reports) where the id comes from a signed token or our VERP. */
export async function findMessageById(db: Queryable, id: string): Promise<MessageRow | null> {
  const { rows } = await db.query<MessageRow>("SELECT * FROM email_messages WHERE id = $1", [id]);
  return rows[0] ?? null;
}

export async function listEvents(db: Queryable, messageId: string): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>("SELECT event_id, type, recipient, detail, created_at FROM email_events WHERE message_id = $1 ORDER BY id", [
    messageId,
  ]);
  return rows;
}

export async function loadAttachments(db: Queryable, messageId: string): Promise<Attachment[]> {
  const { rows } = await db.query<{ filename: string; content_type: string; content_id: string | null; content: Uint8Array }>(
    "SELECT filename, content_type, content_id, content FROM email_attachments WHERE message_id = $1 ORDER BY position",
    [messageId],
  );
  return rows.map((r) => ({ filename: r.filename, contentType: r.content_type, contentId: r.content_id, content: Buffer.from(r.content) }));
}

interface MessageFilter {
  status?: string;
  tag?: string;
  recipient?: string;
  after?: Date;
  before?: Date;
  /** Keyset: rows strictly older than this (submitted_at, id). */
  cursor?: { submittedAt: Date; id: string };
  limit: number;
}

export async function listMessages(db: Queryable, accountId: string, filter: MessageFilter): Promise<MessageRow[]> {
  const where = ["account_id = $1"];
  const params: unknown[] = [accountId];
  const add = (clause: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(clause(`$${params.length}`));
  };
  if (filter.status) add((p) => `status = ${p}`, filter.status);
  if (filter.tag) add((p) => `${p} = ANY(tags)`, filter.tag);
  if (filter.recipient) add((p) => `${p} = ANY(recipients)`, filter.recipient.toLowerCase());
  if (filter.after) add((p) => `submitted_at >= ${p}`, filter.after);
  if (filter.before) add((p) => `submitted_at < ${p}`, filter.before);
  if (filter.cursor) {
    params.push(filter.cursor.submittedAt, filter.cursor.id);
    where.push(`(submitted_at, id) < ($${params.length - 1}, $${params.length})`);
  }
  params.push(filter.limit);
  const { rows } = await db.query<MessageRow>(
    `SELECT * FROM email_messages WHERE ${where.join(" AND ")} ORDER BY submitted_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return rows;
}

/** Takes up to `limit` due messages, most urgent lane first, for `leaseMs`; other workers skip them meanwhile. */
export async function claimDueMessages(db: Queryable, now: Date, leaseMs: number, limit: number): Promise<MessageRow[]> {
  const { rows } = await db.query<MessageRow>(
    `UPDATE email_messages m
        SET queue_state = 'leased', lease_until = $2, attempts = m.attempts + 1, first_attempt_at = COALESCE(m.first_attempt_at, $1)
       FROM (SELECT id FROM email_messages
              WHERE queue_state = 'waiting' AND next_attempt_at <= $1
              ORDER BY priority DESC, next_attempt_at
              LIMIT $3 FOR UPDATE SKIP LOCKED) due
      WHERE m.id = due.id
      RETURNING m.*`,
    [now, new Date(now.getTime() + leaseMs), limit],
  );
  return rows.sort((a, b) => b.priority - a.priority || a.next_attempt_at.getTime() - b.next_attempt_at.getTime());
}

/** Renews the leases of messages this process is still delivering. */
export async function extendLeases(db: Queryable, ids: string[], leaseUntil: Date): Promise<void> {
  await db.query("UPDATE email_messages SET lease_until = $2 WHERE id = ANY($1::text[]) AND queue_state = 'leased'", [ids, leaseUntil]);
}

/**
 * Messages whose worker vanished mid-delivery (a crash) become due again. `ownInFlight` are the ones this process is
 * still delivering: a slow relay must not make the process take its own message a second time.
 */
export async function releaseExpiredLeases(db: Queryable, now: Date, ownInFlight: string[] = []): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE email_messages SET queue_state = 'waiting', next_attempt_at = $1, lease_until = NULL
      WHERE queue_state = 'leased' AND lease_until < $1 AND id <> ALL($2::text[])`,
    [now, ownInFlight],
  );
  return rowCount;
}

/** Cancels a scheduled message that no worker has taken yet; false when it is too late (or not scheduled). */
export async function cancelScheduled(db: Database, accountId: string, id: string, eventId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rowCount } = await tx.query(
      `UPDATE email_messages SET status = 'cancelled', queue_state = 'done'
        WHERE id = $1 AND account_id = $2 AND status = 'scheduled' AND queue_state = 'waiting'`,
      [id, accountId],
    );
    if (rowCount === 0) return false;
    await insertEventAndFanOut(tx, { eventId, messageId: id, accountId, type: "cancelled", recipient: null, detail: {}, at: now }, "cancelled", [], {});
    return true;
  });
}

interface NewEvent {
  eventId: string;
  messageId: string;
  accountId: string;
  type: string;
  recipient: string | null;
  detail: Record<string, unknown>;
  at: Date;
}

/** What a status webhook receives (Standard Webhooks: the body is this JSON). */
function webhookPayload(event: NewEvent, status: string, tags: string[], metadata: Record<string, string>): string {
  return JSON.stringify({
    type: `email.${event.type}`,
    event_id: event.eventId,
    created_at: event.at.toISOString(),
    data: { message_id: event.messageId, status, recipient: event.recipient, detail: event.detail, tags, metadata },
  });
}

/**
 * The end of a statement whose CTE `e` inserted an event ($1 its id, $3 the account, $4 its type, $7 its time, $8 the
 * webhook payload): one delivery for each of the account's webhooks subscribed to that type, in the same statement.
 */
const WEBHOOK_FAN_OUT = `INSERT INTO email_webhook_deliveries (id, webhook_id, account_id, payload, state, next_attempt_at, created_at)
     SELECT $1 || '_' || w.id, w.id, w.account_id, $8, 'waiting', $7, $7
       FROM email_webhooks w, e
      WHERE w.account_id = $3 AND $4 = ANY(w.event_types)`;

/** $1 to $8 of a statement that inserts `event` and fans it out (WEBHOOK_FAN_OUT). */
function eventParams(event: NewEvent, status: string, tags: string[], metadata: Record<string, string>): unknown[] {
  const { eventId, messageId, accountId, type, recipient, detail, at } = event;
  return [eventId, messageId, accountId, type, recipient, JSON.stringify(detail), at, webhookPayload(event, status, tags, metadata)];
}

async function insertEventAndFanOut(db: Queryable, event: NewEvent, status: string, tags: string[], metadata: Record<string, string>): Promise<void> {
  await db.query(
    `WITH e AS (
       INSERT INTO email_events (event_id, message_id, account_id, type, recipient, detail, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id)
     ${WEBHOOK_FAN_OUT}`,
    eventParams(event, status, tags, metadata),
  );
}

/** How the queue columns change with an event (a delivery attempt's outcome). */
export interface QueueChange {
  state: "waiting" | "done";
  nextAttemptAt?: Date;
  sentAt?: Date;
  lastError?: string | null;
  /** The recipients the next attempt goes to (those that failed for now); null: all of them. */
  pendingRecipients?: string[] | null;
}

/**
 * Records an event on a message: the status moves as the domain rules say, the event joins the history and every
 * webhook of the account that listens to this type gets a delivery queued, all in one transaction.
 * Returns the status after the event, or null when the message does not exist.
 */
export async function applyEvent(db: Database, event: NewEvent, queue?: QueueChange, keepStatus = false): Promise<string | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ status: string; tags: string[]; metadata: Record<string, string> }>(
      "SELECT status, tags, metadata FROM email_messages WHERE id = $1 FOR UPDATE",
      [event.messageId],
    );
    const current = rows[0];
    if (!current) return null;
    const status = keepStatus ? current.status : statusAfter(current.status, event.type);
    const sets = ["status = $2"];
    const params: unknown[] = [event.messageId, status];
    const set = (column: string, value: unknown) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (queue) {
      set("queue_state", queue.state);
      set("lease_until", null);
      if (queue.nextAttemptAt) set("next_attempt_at", queue.nextAttemptAt);
      if (queue.sentAt) set("sent_at", queue.sentAt);
      if (queue.lastError !== undefined) set("last_error", queue.lastError);
      if (queue.pendingRecipients !== undefined) set("pending_recipients", queue.pendingRecipients);
    }
    await tx.query(`UPDATE email_messages SET ${sets.join(", ")} WHERE id = $1`, params);
    await insertEventAndFanOut(tx, event, status, current.tags, current.metadata);
    return status;
  });
}

/**
 * A delivery attempt's outcome in one statement: the worker holds the message's lease, so it knows the status the
 * event moves from, and no transaction around a read is needed (the hot path: one round trip per message).
 */
export async function recordAttemptOutcome(
  db: Queryable,
  event: NewEvent,
  message: Pick<MessageRow, "status" | "tags" | "metadata">,
  queue: QueueChange,
): Promise<string> {
  const status = statusAfter(message.status, event.type);
  await db.query(
    `WITH m AS (
       UPDATE email_messages SET status = $9, queue_state = $10, lease_until = NULL,
              next_attempt_at = COALESCE($11, next_attempt_at), sent_at = COALESCE($12, sent_at),
              last_error = CASE WHEN $13 THEN $14 ELSE last_error END,
              pending_recipients = CASE WHEN $15 THEN $16::text[] ELSE pending_recipients END
        WHERE id = $2 RETURNING id),
     e AS (
       INSERT INTO email_events (event_id, message_id, account_id, type, recipient, detail, created_at)
       SELECT $1, m.id, $3, $4, $5, $6, $7 FROM m RETURNING id)
     ${WEBHOOK_FAN_OUT}`,
    [
      ...eventParams(event, status, message.tags, message.metadata),
      status,
      queue.state,
      queue.nextAttemptAt ?? null,
      queue.sentAt ?? null,
      queue.lastError !== undefined,
      queue.lastError ?? null,
      queue.pendingRecipients !== undefined,
      queue.pendingRecipients ?? null,
    ],
  );
  return status;
}
