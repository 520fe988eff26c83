/** What an ingestion writes: publishers and articles by natural key, then what is derived from them. */
import { refreshVocabulary, settleTables, upsertRows, type UpsertCounts } from "@apiplat/catalogue";
import type { Database, Queryable } from "@apiplat/storage";
import type { Article, Publisher } from "../domain/articles.js";

export interface ArticleWithPublisher {
  article: Article;
  publisher: Publisher;
}

const ARTICLE_COLUMNS = [
  "id",
  "dataset",
  "source_id",
  "source_name",
  "author",
  "title",
  "description",
  "url",
  "domain",
  "image_url",
  "published_at",
  "category",
  "country",
  "language",
  "text_config",
  "story_id",
  "revision",
] as const;
const PUBLISHER_COLUMNS = ["id", "name", "url", "category", "language", "country"] as const;

/** Publishers first (an article names its publisher), then the articles, both by natural key. */
export async function upsertArticles(db: Queryable, rows: ArticleWithPublisher[]): Promise<UpsertCounts> {
  await upsertRows(
    db,
    { table: "news_sources", key: ["id"], columns: PUBLISHER_COLUMNS },
    rows.map((r) => r.publisher),
  );
  return upsertRows(
    db,
    { table: "articles", key: ["id"], columns: ARTICLE_COLUMNS, revision: "revision" },
    rows.map((r) => r.article),
  );
}

/** After a load: publishers' counts and date ranges, story sizes (UCI's popularity signal), the search vocabulary. */
export async function refreshDerived(db: Database): Promise<void> {
  await db.query(
    `UPDATE news_sources s SET article_count = c.n, oldest_published_at = c.oldest, newest_published_at = c.newest
     FROM (SELECT source_id, count(*)::int AS n, min(published_at) AS oldest, max(published_at) AS newest
           FROM articles GROUP BY source_id) c
     WHERE s.id = c.source_id AND (s.article_count, s.oldest_published_at, s.newest_published_at) IS DISTINCT FROM (c.n, c.oldest, c.newest)`,
  );
  await db.query(
    `UPDATE articles a SET popularity = c.n
     FROM (SELECT story_id, count(*)::int AS n FROM articles WHERE story_id IS NOT NULL GROUP BY story_id) c
     WHERE a.story_id = c.story_id AND a.popularity IS DISTINCT FROM c.n`,
  );
  await refreshVocabulary(db, "SELECT title || ' ' || coalesce(description, '') FROM articles");
  await settleTables(db, ["articles", "news_sources", "search_vocabulary"]);
}
