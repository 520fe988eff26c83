/** Writes to the index: rows upserted by natural key, and what is derived from them after a load. */
import { refreshVocabulary, settleTables, upsertRows, type UpsertCounts } from "@apiplat/catalogue";
import type { Database, Queryable } from "@apiplat/storage";
import { EXPLICIT_TERMS } from "../domain/pages.js";

export type WebPageRow = {
  id: string;
  dataset: string;
  url: string;
  title: string;
  body: string;
  keywords: string;
  published_at: Date | null;
  language: string | null;
  explicit: boolean;
  text_config: string;
  /** Orders versions of one page: a record's line in its dataset, or a crawl's fetch time. */
  revision: number;
};

export type ImageRow = {
  id: number;
  file_name: string;
  original: string;
  flickr_url: string | null;
  width: number | null;
  height: number | null;
  licence_name: string | null;
  licence_url: string | null;
  revision: number;
};

export type CaptionRow = {
  id: number;
  image_id: number;
  caption: string;
  revision: number;
};

export type NewsRow = {
  id: string;
  dataset: string;
  url: string;
  title: string;
  snippet: string | null;
  source_name: string;
  published_at: Date;
  explicit: boolean;
  revision: number;
};

const PAGE_COLUMNS = ["id", "dataset", "url", "title", "body", "keywords", "published_at", "language", "explicit", "text_config", "revision"] as const;
const IMAGE_COLUMNS = ["id", "file_name", "original", "flickr_url", "width", "height", "licence_name", "licence_url", "revision"] as const;
const CAPTION_COLUMNS = ["id", "image_id", "caption", "revision"] as const;
const NEWS_COLUMNS = ["id", "dataset", "url", "title", "snippet", "source_name", "published_at", "explicit", "revision"] as const;

export const upsertPages = (db: Queryable, rows: WebPageRow[]): Promise<UpsertCounts> =>
  upsertRows(db, { table: "web_pages", key: ["id"], columns: PAGE_COLUMNS, revision: "revision" }, rows);
export const upsertImages = (db: Queryable, rows: ImageRow[]): Promise<UpsertCounts> =>
  upsertRows(db, { table: "images", key: ["id"], columns: IMAGE_COLUMNS, revision: "revision" }, rows);
export const upsertCaptions = (db: Queryable, rows: CaptionRow[]): Promise<UpsertCounts> =>
  upsertRows(db, { table: "image_captions", key: ["id"], columns: CAPTION_COLUMNS, revision: "revision" }, rows);
export const upsertNews = (db: Queryable, rows: NewsRow[]): Promise<UpsertCounts> =>
  upsertRows(db, { table: "news_articles", key: ["id"], columns: NEWS_COLUMNS, revision: "revision" }, rows);

/** The explicit-terms list as a PostgreSQL word-boundary regular expression (for text gathered in SQL). */
const EXPLICIT_REGEX = `\\m(${EXPLICIT_TERMS.join("|")})\\M`;

/**
 * After a load: each image's captions gathered (its search text, its title = its first caption, its explicit flag),
 * the typo-correction vocabulary over every kind of result, and fresh planner statistics.
 */
export async function refreshIndex(db: Database): Promise<void> {
  await db.query(
    `UPDATE images i SET captions = c.text, title = c.first, explicit = c.text ~* $1
     FROM (SELECT image_id, string_agg(caption, ' ' ORDER BY id) AS text, (array_agg(caption ORDER BY id))[1] AS first
           FROM image_captions GROUP BY image_id) c
     WHERE i.id = c.image_id AND (i.captions, i.title, i.explicit) IS DISTINCT FROM (c.text, c.first, c.text ~* $1)`,
    [EXPLICIT_REGEX],
  );
  await refreshVocabulary(
    db,
    `SELECT title || ' ' || body FROM web_pages UNION ALL SELECT captions FROM images
     UNION ALL SELECT title || ' ' || coalesce(snippet, '') FROM news_articles`,
  );
  await settleTables(db, ["web_pages", "images", "image_captions", "news_articles", "search_vocabulary"]);
}
