import type { Queryable } from "@apiplat/storage";

export interface DomainRow {
  domain: string;
  account_id: string;
  verified_at: Date | null;
  last_checked_at: Date | null;
  last_check_error: string | null;
  created_at: Date;
}

const COLUMNS = "domain, account_id, verified_at, last_checked_at, last_check_error, created_at";

/** Registers the domain for the account, or returns null when any account already registered it. */
export async function insertDomain(db: Queryable, domain: string, accountId: string, at: Date): Promise<DomainRow | null> {
  const result = await db.query<DomainRow>(
    `INSERT INTO shortener_domains (domain, account_id, created_at) VALUES ($1, $2, $3)
     ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
    [domain, accountId, at],
  );
  return result.rows[0] ?? null;
}

export async function findDomain(db: Queryable, domain: string): Promise<DomainRow | null> {
  const result = await db.query<DomainRow>(`SELECT ${COLUMNS} FROM shortener_domains WHERE domain = $1`, [domain]);
  return result.rows[0] ?? null;
}

export async function listDomains(db: Queryable, accountId: string): Promise<DomainRow[]> {
  const result = await db.query<DomainRow>(`SELECT ${COLUMNS} FROM shortener_domains WHERE account_id = $1 ORDER BY created_at, domain`, [accountId]);
  return result.rows;
}

export async function recordVerification(db: Queryable, domain: string, at: Date, error: string | null): Promise<DomainRow> {
  const result = await db.query<DomainRow>(
    `UPDATE shortener_domains
     SET last_checked_at = $2, last_check_error = $3,
         verified_at = CASE WHEN $3::text IS NULL THEN coalesce(verified_at, $2) ELSE verified_at END
     WHERE domain = $1 RETURNING ${COLUMNS}`,
    [domain, at, error],
  );
  return result.rows[0];
}

export async function listVerifiedDomains(db: Queryable): Promise<string[]> {
  const result = await db.query<{ domain: string }>("SELECT domain FROM shortener_domains WHERE verified_at IS NOT NULL");
  return result.rows.map((row) => row.domain);
}
