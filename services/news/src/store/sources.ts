import { SqlFilter, type Page } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import type { Publisher } from "../domain/articles.js";

/** A publisher as ingestion writes it, with the counts and dates derived from its articles after each run. */
type SourceRecord = Publisher & { article_count: number; oldest_published_at: Date | null; newest_published_at: Date | null };

/** Publishers with at least one article, the largest first. */
export async function listSources(
  db: Queryable,
  filters: { category?: string; language?: string; country?: string },
  page: Page,
): Promise<{ total: number; sources: SourceRecord[] }> {
  const filter = new SqlFilter()
    .where("article_count > 0")
    .equals("category", filters.category?.toLowerCase())
    .equals("language", filters.language?.toLowerCase())
    .equals("country", filters.country?.toLowerCase());
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM news_sources ${filter.sql}`, filter.params);
  const { rows } = await db.query<SourceRecord>(
    `SELECT * FROM news_sources ${filter.sql} ORDER BY article_count DESC, id LIMIT ${filter.param(page.limit)} OFFSET ${filter.param(page.offset)}`,
    filter.params,
  );
  return { total: count.rows[0].n, sources: rows };
}
