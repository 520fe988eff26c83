/**
 * The videos held in memory for /search (see @apiplat/catalogue's memoryCatalogue): every video's fields, its
 * category's name and its weighted tsvector, read again after each ingestion run, with the rows sorted once per
 * sort. The full catalogue (18,365 videos) takes about 112 MB: 25 MB of rows, 86 MB of TextIndex (94,000 lexemes),
 * 1 MB of sort orders and filter columns.
 */
import {
  memoryCatalogue,
  RANK_NORMALIZATION,
  tsquerySql,
  withSearchTimeout,
  type CatalogueSnapshot,
  type MemoryCatalogue,
  type Page,
} from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { listVideos, prepareSearch, searchMatches } from "../domain/video-search.js";
import { searchVideos, VIDEO_COLUMNS, type VideoFilters, type VideoRecord, type VideoSort } from "./videos.js";

export type VideoCatalogue = MemoryCatalogue<VideoRecord>;

export function videoCatalogue(db: Queryable): VideoCatalogue {
  return memoryCatalogue(db, async (db) => {
    const { rows } = await db.query<VideoRecord & { vector: string | null }>(`SELECT ${VIDEO_COLUMNS}, v.document::text AS vector FROM videos v`);
    const videos = rows.map(({ vector: _vector, ...video }) => video);
    prepareSearch(videos);
    return { rows: videos, vectors: { document: rows.map((row) => row.vector) } };
  });
}

/**
 * /search from the videos in memory: a listing filters and walks the rows in the sort's order; a text search is
 * matched and ranked by the TextIndex, except a query it leaves to the database (a weight restriction, which
 * websearch syntax cannot write), answered by the SQL search.
 */
export async function findVideos(
  catalogue: VideoCatalogue,
  db: Queryable,
  filters: VideoFilters,
  sort: VideoSort,
  page: Page,
): Promise<{ total: number; videos: VideoRecord[] }> {
  const { text, ...rest } = filters;
  if (!text) return listVideos((await catalogue.current()).rows, rest, sort, page);
  const { snapshot, tsqueries } = await catalogue.compile((filter) => ({ document: tsquerySql(filter, text.query, "english") }));
  const matches = snapshot.indexes.document.search(tsqueries.document, RANK_NORMALIZATION);
  if (matches) return searchMatches(snapshot.rows, matches, rest, sort, page);
  return withSearchTimeout(db, (db) => searchVideos(db, filters, sort, page));
}
