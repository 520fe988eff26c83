import type { Queryable } from "@apiplat/storage";
import type { Article } from "../domain/articles.js";

/**
 * An article as searches and views read it: the row ingestion writes (domain's Article), less the columns only
 * ingestion uses, with the popularity derived after each run.
 */
export type ArticleRecord = Omit<Article, "dataset" | "text_config" | "story_id" | "revision"> & { popularity: number | null };

export const ARTICLE_COLUMNS =
  "id, source_id, source_name, author, title, description, url, domain, image_url, published_at, category, country, language, popularity";

/**
 * Which of the given values of a filter no article has (for a 400 naming them, as NewsAPI does), and, only then,
 * the values articles do have: countries and categories of articles, ids of sources with articles.
 */
export async function unknownValues(
  db: Queryable,
  field: "country" | "category" | "source",
  values: readonly string[],
): Promise<{ unknown: string[]; known: string[] }> {
  const column = field === "source" ? "source_id" : field;
  const { rows } = await db.query<{ value: string }>(
    `SELECT value FROM unnest($1::text[]) AS wanted(value) WHERE NOT EXISTS (SELECT 1 FROM articles WHERE ${column} = wanted.value)`,
    [values],
  );
  if (rows.length === 0) return { unknown: [], known: [] };
  const known =
    field === "source"
      ? await db.query<{ value: string }>("SELECT id AS value FROM news_sources WHERE article_count > 0 ORDER BY article_count DESC, id LIMIT 20")
      : await db.query<{ value: string }>(`SELECT DISTINCT ${column} AS value FROM articles WHERE ${column} IS NOT NULL ORDER BY 1`);
  return { unknown: rows.map((row) => row.value), known: known.rows.map((row) => row.value) };
}
