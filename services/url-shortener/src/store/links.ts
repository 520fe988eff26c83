import type { Queryable } from "@apiplat/storage";

export interface LinkRow {
  id: number;
  account_id: string;
  domain: string;
  code: string;
  url: string;
  fallback_url: string | null;
  redirect_status: number;
  expires_at: Date | null;
  max_clicks: number | null;
  clicks: number;
  last_clicked_at: Date | null;
  created_at: Date;
  deleted_at: Date | null;
}

export interface NewLink {
  accountId: string;
  domain: string;
  code: string;
  url: string;
  fallbackUrl: string | null;
  redirectStatus: 301 | 302;
  expiresAt: Date | null;
  maxClicks: number | null;
  createdAt: Date;
}

const COLUMNS = "id, account_id, domain, code, url, fallback_url, redirect_status, expires_at, max_clicks, clicks, last_clicked_at, created_at, deleted_at";

/** Inserts the link, or returns null when the code (in any letter case) is taken on that domain. */
export async function insertLink(db: Queryable, link: NewLink): Promise<LinkRow | null> {
  const result = await db.query<LinkRow>(
    `INSERT INTO shortener_links (account_id, domain, code, url, fallback_url, redirect_status, expires_at, max_clicks, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [link.accountId, link.domain, link.code, link.url, link.fallbackUrl, link.redirectStatus, link.expiresAt, link.maxClicks, link.createdAt],
  );
  return result.rows[0] ?? null;
}

export async function findLinkByCode(db: Queryable, domain: string, code: string): Promise<LinkRow | null> {
  const result = await db.query<LinkRow>(`SELECT ${COLUMNS} FROM shortener_links WHERE domain = $1 AND code = $2`, [domain, code]);
  return result.rows[0] ?? null;
}

export async function findOwnedLink(db: Queryable, accountId: string, domain: string, code: string): Promise<LinkRow | null> {
  const link = await findLinkByCode(db, domain, code);
  return link && link.account_id === accountId ? link : null;
}

export async function listOwnedLinks(
  db: Queryable,
  accountId: string,
  options: { limit: number; beforeId: number | null; includeDeleted: boolean },
): Promise<LinkRow[]> {
  const result = await db.query<LinkRow>(
    `SELECT ${COLUMNS} FROM shortener_links
     WHERE account_id = $1 AND ($2::bigint IS NULL OR id < $2) AND ($3 OR deleted_at IS NULL)
     ORDER BY id DESC LIMIT $4`,
    [accountId, options.beforeId, options.includeDeleted, options.limit],
  );
  return result.rows;
}

/** Marks the link deleted; the code stays taken so that an old short URL can never lead somewhere new. */
export async function softDeleteLink(db: Queryable, linkId: number, at: Date): Promise<LinkRow | null> {
  const result = await db.query<LinkRow>(`UPDATE shortener_links SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`, [linkId, at]);
  return result.rows[0] ?? null;
}

/**
 * Takes one click of a click-limited link, atomically: concurrent redirects (from any number of processes)
 * never take more than max_clicks. Returns false when the link is used up, expired or deleted.
 */
export async function takeLimitedClick(db: Queryable, linkId: number, at: Date): Promise<boolean> {
  const result = await db.query(
    `UPDATE shortener_links SET clicks = clicks + 1, last_clicked_at = greatest(last_clicked_at, $2)
     WHERE id = $1 AND deleted_at IS NULL AND clicks < max_clicks AND (expires_at IS NULL OR expires_at > $2)`,
    [linkId, at],
  );
  return result.rowCount === 1;
}

/** Inserts many links in one statement; returns the rows inserted (a link whose code was taken is left out). */
export async function insertLinks(db: Queryable, links: readonly NewLink[]): Promise<LinkRow[]> {
  if (links.length === 0) return [];
  const result = await db.query<LinkRow>(
    `INSERT INTO shortener_links (account_id, domain, code, url, fallback_url, redirect_status, expires_at, max_clicks, created_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::smallint[], $7::timestamptz[], $8::bigint[], $9::timestamptz[])
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      links.map((l) => l.accountId),
      links.map((l) => l.domain),
      links.map((l) => l.code),
      links.map((l) => l.url),
      links.map((l) => l.fallbackUrl),
      links.map((l) => l.redirectStatus),
      links.map((l) => l.expiresAt?.toISOString() ?? null),
      links.map((l) => l.maxClicks),
      links.map((l) => l.createdAt.toISOString()),
    ],
  );
  return result.rows;
}

export async function hasClicksLeft(db: Queryable, linkId: number): Promise<boolean> {
  const result = await db.query("SELECT 1 FROM shortener_links WHERE id = $1 AND clicks < max_clicks", [linkId]);
  return result.rowCount === 1;
}

export interface LinkChanges {
  url?: string;
  fallbackUrl?: string | null;
  expiresAt?: Date | null;
  maxClicks?: number | null;
  redirectStatus?: 301 | 302;
}

const CHANGE_COLUMNS: Record<keyof LinkChanges, string> = {
  url: "url",
  fallbackUrl: "fallback_url",
  expiresAt: "expires_at",
  maxClicks: "max_clicks",
  redirectStatus: "redirect_status",
};

/** Applies the given changes to a link that is not deleted; returns null when it is (or became) deleted. */
export async function updateLink(db: Queryable, linkId: number, changes: LinkChanges): Promise<LinkRow | null> {
  const keys = (Object.keys(changes) as Array<keyof LinkChanges>).filter((key) => changes[key] !== undefined);
  const assignments = keys.map((key, i) => `${CHANGE_COLUMNS[key]} = $${i + 2}`);
  if (assignments.length === 0) assignments.push("url = url");
  const result = await db.query<LinkRow>(`UPDATE shortener_links SET ${assignments.join(", ")} WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`, [
    linkId,
    ...keys.map((key) => changes[key]),
  ]);
  return result.rows[0] ?? null;
}
