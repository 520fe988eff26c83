import type { Queryable } from "@apiplat/storage";

export async function getFallbackUrl(db: Queryable, accountId: string): Promise<string | null> {
  const result = await db.query<{ fallback_url: string | null }>("SELECT fallback_url FROM shortener_settings WHERE account_id = $1", [accountId]);
  return result.rows[0]?.fallback_url ?? null;
}

export async function putFallbackUrl(db: Queryable, accountId: string, fallbackUrl: string | null, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO shortener_settings (account_id, fallback_url, updated_at) VALUES ($1, $2, $3)
     ON CONFLICT (account_id) DO UPDATE SET fallback_url = excluded.fallback_url, updated_at = excluded.updated_at`,
    [accountId, fallbackUrl, at],
  );
}
