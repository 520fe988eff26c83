import type { Database, Queryable } from "@apiplat/storage";

/** The opt-in list (contacts) and the suppression list of an account. */

export interface ContactRow {
  email: string;
  consent_at: Date;
  source: string;
  created_at: Date;
}

export interface SuppressionRow {
  email: string;
  reason: "hard_bounce" | "complaint" | "unsubscribed" | "manual";
  detail: string;
  message_id: string | null;
  created_at: Date;
}

export async function upsertContact(db: Queryable, accountId: string, contact: ContactRow): Promise<ContactRow> {
  const { rows } = await db.query<ContactRow>(
    `INSERT INTO email_contacts (account_id, email, consent_at, source, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, email) DO UPDATE SET consent_at = EXCLUDED.consent_at, source = EXCLUDED.source
     RETURNING email, consent_at, source, created_at`,
    [accountId, contact.email, contact.consent_at, contact.source, contact.created_at],
  );
  return rows[0];
}

export async function findContact(db: Queryable, accountId: string, email: string): Promise<ContactRow | null> {
  const { rows } = await db.query<ContactRow>("SELECT email, consent_at, source, created_at FROM email_contacts WHERE account_id = $1 AND email = $2", [
    accountId,
    email,
  ]);
  return rows[0] ?? null;
}

export async function listContacts(db: Queryable, accountId: string, after: string | null, limit: number): Promise<ContactRow[]> {
  const { rows } = await db.query<ContactRow>(
    `SELECT email, consent_at, source, created_at FROM email_contacts WHERE account_id = $1 AND ($2::text IS NULL OR email > $2)
     ORDER BY email LIMIT $3`,
    [accountId, after, limit],
  );
  return rows;
}

export async function deleteContact(db: Queryable, accountId: string, email: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM email_contacts WHERE account_id = $1 AND email = $2", [accountId, email]);
  return rowCount === 1;
}

/** Which of `emails` are on the opt-in list. */
export async function optedIn(db: Queryable, accountId: string, emails: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ email: string }>("SELECT email FROM email_contacts WHERE account_id = $1 AND email = ANY($2)", [accountId, emails]);
  return new Set(rows.map((r) => r.email));
}

/** Suppressions among `emails`. */
export async function suppressionsAmong(db: Queryable, accountId: string, emails: string[]): Promise<Map<string, SuppressionRow["reason"]>> {
  const { rows } = await db.query<{ email: string; reason: SuppressionRow["reason"] }>(
    "SELECT email, reason FROM email_suppressions WHERE account_id = $1 AND email = ANY($2)",
    [accountId, emails],
  );
  return new Map(rows.map((r) => [r.email, r.reason]));
}

/** Adds an address to the suppression list; an existing entry keeps its first reason (idempotent). */
export async function suppress(db: Queryable, accountId: string, row: SuppressionRow): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO email_suppressions (account_id, email, reason, detail, message_id, created_at) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (account_id, email) DO NOTHING`,
    [accountId, row.email, row.reason, row.detail, row.message_id, row.created_at],
  );
  return rowCount === 1;
}

export async function listSuppressions(db: Queryable, accountId: string, after: string | null, limit: number, reason?: string): Promise<SuppressionRow[]> {
  const { rows } = await db.query<SuppressionRow>(
    `SELECT email, reason, detail, message_id, created_at FROM email_suppressions
      WHERE account_id = $1 AND ($2::text IS NULL OR email > $2) AND ($4::text IS NULL OR reason = $4)
      ORDER BY email LIMIT $3`,
    [accountId, after, limit, reason ?? null],
  );
  return rows;
}

export async function findSuppression(db: Queryable, accountId: string, email: string): Promise<SuppressionRow | null> {
  const { rows } = await db.query<SuppressionRow>(
    "SELECT email, reason, detail, message_id, created_at FROM email_suppressions WHERE account_id = $1 AND email = $2",
    [accountId, email],
  );
  return rows[0] ?? null;
}

/** Suppressions only the recipient, or a new recorded consent, may lift. */
export const RECIPIENT_SUPPRESSIONS: readonly SuppressionRow["reason"][] = ["unsubscribed", "complaint"];

export interface Consent {
  liftedBy: "recipient" | "sender";
  source: string;
  consentedAt: Date;
  recordedAt: Date;
}

/**
 * Lifts an unsubscribe or a complaint on the strength of a new consent, and keeps that consent on record, in one
 * transaction. Returns the reason lifted, or null when the address holds no such suppression.
 */
export async function liftWithConsent(db: Database, accountId: string, email: string, consent: Consent): Promise<SuppressionRow["reason"] | null> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ reason: SuppressionRow["reason"] }>(
      "DELETE FROM email_suppressions WHERE account_id = $1 AND email = $2 AND reason = ANY($3) RETURNING reason",
      [accountId, email, RECIPIENT_SUPPRESSIONS],
    );
    if (rows.length === 0) return null;
    await tx.query(
      `INSERT INTO email_consents (account_id, email, lifted_reason, lifted_by, source, consented_at, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [accountId, email, rows[0].reason, consent.liftedBy, consent.source, consent.consentedAt, consent.recordedAt],
    );
    return rows[0].reason;
  });
}

/** The sender may lift bounce (and its own manual) suppressions only: false when there is none of those. */
export async function deleteSenderSuppression(db: Queryable, accountId: string, email: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM email_suppressions WHERE account_id = $1 AND email = $2 AND reason <> ALL($3)", [
    accountId,
    email,
    RECIPIENT_SUPPRESSIONS,
  ]);
  return rowCount === 1;
}
