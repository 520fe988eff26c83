import type { Queryable } from "@apiplat/storage";

interface TemplateRow {
  account_id: string;
  name: string;
  version: number;
  subject: string;
  html: string;
  text_body: string | null;
  created_at: Date;
}

export interface TemplateSummary extends TemplateRow {
  first_created_at: Date;
}

/** The newest version (or the one asked for) with the time the first version was saved. */
export async function findTemplate(db: Queryable, accountId: string, name: string, version?: number): Promise<TemplateSummary | null> {
  const { rows } = await db.query<TemplateSummary>(
    `SELECT t.*, (SELECT min(created_at) FROM email_templates f WHERE f.account_id = t.account_id AND f.name = t.name) AS first_created_at
       FROM email_templates t
      WHERE account_id = $1 AND name = $2 ${version === undefined ? "" : "AND version = $3"}
      ORDER BY version DESC LIMIT 1`,
    version === undefined ? [accountId, name] : [accountId, name, version],
  );
  return rows[0] ?? null;
}

export async function listTemplates(db: Queryable, accountId: string): Promise<TemplateSummary[]> {
  const { rows } = await db.query<TemplateSummary>(
    `SELECT DISTINCT ON (name) t.*, (SELECT min(created_at) FROM email_templates f WHERE f.account_id = t.account_id AND f.name = t.name) AS first_created_at
       FROM email_templates t WHERE account_id = $1 ORDER BY name, version DESC`,
    [accountId],
  );
  return rows;
}

export async function countTemplates(db: Queryable, accountId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(DISTINCT name)::int AS n FROM email_templates WHERE account_id = $1", [accountId]);
  return rows[0].n;
}

/**
 * Saves `row` as the next version; `expectNew` makes it a create that fails (null) if the name exists. A change
 * fails (null) when the name does not exist or already keeps `maxVersions` versions.
 */
export async function saveTemplateVersion(
  db: Queryable,
  row: Omit<TemplateRow, "version">,
  expectNew: boolean,
  maxVersions = Number.MAX_SAFE_INTEGER,
): Promise<number | null> {
  const { rows } = await db.query<{ version: number }>(
    `INSERT INTO email_templates (account_id, name, version, subject, html, text_body, created_at)
     SELECT $1, $2, COALESCE(max(version), 0) + 1, $3, $4, $5, $6 FROM email_templates WHERE account_id = $1 AND name = $2
     HAVING ${expectNew ? "count(*) = 0" : "count(*) > 0 AND count(*) < $7"}
     ON CONFLICT DO NOTHING RETURNING version`,
    [row.account_id, row.name, row.subject, row.html, row.text_body, row.created_at, ...(expectNew ? [] : [maxVersions])],
  );
  return rows[0]?.version ?? null;
}

export async function deleteTemplate(db: Queryable, accountId: string, name: string): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM email_templates WHERE account_id = $1 AND name = $2", [accountId, name]);
  return rowCount > 0;
}

export async function countVersions(db: Queryable, accountId: string, name: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM email_templates WHERE account_id = $1 AND name = $2", [accountId, name]);
  return rows[0].n;
}

export async function deleteTemplateVersion(db: Queryable, accountId: string, name: string, version: number): Promise<boolean> {
  const { rowCount } = await db.query("DELETE FROM email_templates WHERE account_id = $1 AND name = $2 AND version = $3", [accountId, name, version]);
  return rowCount > 0;
}
