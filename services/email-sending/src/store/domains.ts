import type { Queryable } from "@apiplat/storage";

export interface DomainRow {
  account_id: string;
  domain: string;
  dkim_selector: string;
  dkim_public_key: string;
  dkim_private_key_enc: string;
  spf_verified: boolean;
  dkim_verified: boolean;
  return_path_verified: boolean;
  verified_at: Date | null;
  last_checked_at: Date | null;
  created_at: Date;
}

/** The account under which the service keeps its own default sending domain. */
export const PLATFORM_ACCOUNT = "";

export async function insertDomain(db: Queryable, row: DomainRow): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO email_domains (account_id, domain, dkim_selector, dkim_public_key, dkim_private_key_enc, spf_verified, dkim_verified,
       return_path_verified, verified_at, last_checked_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING`,
    [
      row.account_id,
      row.domain,
      row.dkim_selector,
      row.dkim_public_key,
      row.dkim_private_key_enc,
      row.spf_verified,
      row.dkim_verified,
      row.return_path_verified,
      row.verified_at,
      row.last_checked_at,
      row.created_at,
    ],
  );
  return rowCount === 1;
}

export async function findDomain(db: Queryable, accountId: string, domain: string): Promise<DomainRow | null> {
  const { rows } = await db.query<DomainRow>("SELECT * FROM email_domains WHERE account_id = $1 AND domain = $2", [accountId, domain]);
  return rows[0] ?? null;
}

export async function listDomains(db: Queryable, accountId: string): Promise<DomainRow[]> {
  const { rows } = await db.query<DomainRow>("SELECT * FROM email_domains WHERE account_id = $1 ORDER BY domain", [accountId]);
  return rows;
}

export async function countDomains(db: Queryable, accountId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM email_domains WHERE account_id = $1", [accountId]);
  return rows[0].n;
}

export async function deleteDomain(db: Queryable, accountId: string, domain: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM email_domains WHERE account_id = $1 AND domain = $2", [accountId, domain]);
  return rowCount === 1;
}

export async function saveVerification(
  db: Queryable,
  accountId: string,
  domain: string,
  result: { spf: boolean; dkim: boolean; returnPath: boolean },
  now: Date,
): Promise<DomainRow> {
  const { rows } = await db.query<DomainRow>(
    `UPDATE email_domains
        SET spf_verified = $3, dkim_verified = $4, return_path_verified = $5, last_checked_at = $6,
            verified_at = CASE WHEN $3 AND $4 THEN COALESCE(verified_at, $6) ELSE NULL END
      WHERE account_id = $1 AND domain = $2 RETURNING *`,
    [accountId, domain, result.spf, result.dkim, result.returnPath, now],
  );
  return rows[0];
}
