/** What each feed last answered (its validators), for the next conditional GET. */
import type { Queryable } from "@apiplat/storage";

interface FeedState {
  etag: string | null;
  last_modified: string | null;
}

export async function feedState(db: Queryable, url: string): Promise<FeedState | null> {
  const { rows } = await db.query<FeedState>("SELECT etag, last_modified FROM feed_state WHERE url = $1", [url]);
  return rows[0] ?? null;
}

export async function saveFeedState(db: Queryable, url: string, status: number, headers: Record<string, unknown>, now: Date): Promise<void> {
  const header = (name: string) => (typeof headers[name] === "string" ? (headers[name] as string) : null);
  await db.query(
    `INSERT INTO feed_state (url, etag, last_modified, last_status, last_fetched_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (url) DO UPDATE SET etag = coalesce(EXCLUDED.etag, feed_state.etag),
       last_modified = coalesce(EXCLUDED.last_modified, feed_state.last_modified),
       last_status = EXCLUDED.last_status, last_fetched_at = EXCLUDED.last_fetched_at`,
    [url, header("etag"), header("last-modified"), status, now],
  );
}
