/**
 * The videos held in memory (see @apiplat/catalogue's memoryCatalogue), the one engine of /search, with or without
 * `q`: every video's fields, its category's name and its weighted tsvector, read again after each ingestion run, with
 * the rows sorted once per sort. The full catalogue (18,365 videos) takes about 112 MB: 25 MB of rows, 86 MB of
 * TextIndex (94,000 lexemes), 1 MB of sort orders and filter columns. The database is the store of record the
 * snapshot is read from.
 *
 * Filters and sorts keep the catalogue's semantics: the country lower-cased and looked up in the video's countries,
 * the category by id, published_after inclusive and published_before exclusive, min_views inclusive, a NULL matching
 * no filter; every sort descending with NULLs last, ties by video id in byte order (relevance: the rank, then as by
 * views).
 */
import { byteOrder, firstInOrder, memoryCatalogue, rankedSearch, type MemoryCatalogue, type Page, type TextMatches, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { VIDEO_COLUMNS, type VideoRecord } from "./videos.js";

export type VideoCatalogue = MemoryCatalogue<VideoRecord>;

type VideoSort = "relevance" | "views" | "engagement" | "growth";

interface VideoFilters {
  text?: { query: TextQuery };
  country?: string;
  categoryId?: number;
  publishedAfter?: Date;
  publishedBefore?: Date;
  minViews?: number;
}

export function videoCatalogue(db: Queryable): VideoCatalogue {
  return memoryCatalogue(db, async (db) => {
    const { rows } = await db.query<VideoRecord & { vector: string | null }>(`SELECT ${VIDEO_COLUMNS}, v.document::text AS vector FROM videos v`);
    const videos = rows.map(({ vector: _vector, ...video }) => video);
    prepareSearch(videos);
    return { rows: videos, vectors: { document: rows.map((row) => row.vector) } };
  });
}

/** /search: a listing filters and walks the rows in the sort's order; a text search is matched and ranked by the TextIndex. */
export async function findVideos(
  catalogue: VideoCatalogue,
  filters: VideoFilters,
  sort: VideoSort,
  page: Page,
): Promise<{ total: number; videos: VideoRecord[] }> {
  const { text, ...rest } = filters;
  if (!text) return listVideos((await catalogue.current()).rows, rest, sort, page);
  const { rows, matches } = await rankedSearch(catalogue, "document", text.query, "english");
  return searchMatches(rows, matches, rest, sort, page);
}

type Filters = Omit<VideoFilters, "text">;
type MetricSort = Exclude<VideoSort, "relevance">;

const METRICS: Record<MetricSort, (video: VideoRecord) => number | null> = {
  views: (video) => video.latest_views,
  engagement: (video) => video.engagement_rate,
  growth: (video) => video.views_gained_per_day,
};

/** Without a rank, relevance is the views order (as the SQL's ORDER BY without q). */
const metricSortOf = (sort: VideoSort): MetricSort => (sort === "relevance" ? "views" : sort);

/** `metric DESC NULLS LAST, video_id` */
function descendingBy(metric: (video: VideoRecord) => number | null): (a: VideoRecord, b: VideoRecord) => number {
  return (a, b) => {
    const [x, y] = [metric(a), metric(b)];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
    return byteOrder(a.video_id, b.video_id);
  };
}

/** The rows in one sort's order (`ordinals`), and each row's place in it (`places[ordinal]`). */
interface RowOrder {
  ordinals: Int32Array;
  places: Int32Array;
}

/**
 * What the filters read, by row ordinal, in typed arrays (NaN for NULL, which then fails every comparison as
 * NULL does in SQL): a filter reading the row objects themselves, scattered over the heap, is many times slower.
 */
interface FilterColumns {
  /** For each country a video trended in, 1 at the ordinals of its videos. */
  countries: Map<string, Uint8Array>;
  categoryIds: Float64Array;
  publishedAt: Float64Array;
  latestViews: Float64Array;
}

interface SearchColumns {
  filters: FilterColumns;
  orders: Record<MetricSort, RowOrder>;
}

/** Each snapshot's columns, built once (see prepareSearch). */
const columnsByRows = new WeakMap<readonly VideoRecord[], SearchColumns>();

function columnsOf(rows: readonly VideoRecord[]): SearchColumns {
  let columns = columnsByRows.get(rows);
  if (!columns) {
    const orders = Object.fromEntries((Object.keys(METRICS) as MetricSort[]).map((sort) => [sort, orderOf(rows, sort)])) as Record<MetricSort, RowOrder>;
    columnsByRows.set(rows, (columns = { filters: filterColumnsOf(rows), orders }));
  }
  return columns;
}

/** Builds a snapshot's columns: done when it is read, rather than by its first search. */
function prepareSearch(rows: readonly VideoRecord[]): void {
  columnsOf(rows);
}

function orderOf(rows: readonly VideoRecord[], sort: MetricSort): RowOrder {
  const compare = descendingBy(METRICS[sort]);
  const ordinals = Int32Array.from(rows.keys()).sort((a, b) => compare(rows[a], rows[b]));
  const places = new Int32Array(rows.length);
  ordinals.forEach((ordinal, place) => (places[ordinal] = place));
  return { ordinals, places };
}

function filterColumnsOf(rows: readonly VideoRecord[]): FilterColumns {
  const column = (value: (video: VideoRecord) => number | null) => Float64Array.from(rows, (video) => value(video) ?? NaN);
  const countries = new Map<string, Uint8Array>();
  rows.forEach((video, ordinal) => {
    for (const country of video.countries ?? []) {
      let members = countries.get(country);
      if (!members) countries.set(country, (members = new Uint8Array(rows.length)));
      members[ordinal] = 1;
    }
  });
  return {
    countries,
    categoryIds: column((video) => video.category_id),
    publishedAt: column((video) => video.published_at?.getTime() ?? null),
    latestViews: column((video) => video.latest_views),
  };
}

/** The filters as a test of a row's ordinal. */
function matchesFilters(columns: FilterColumns, filters: Filters): (ordinal: number) => boolean {
  const { categoryIds, publishedAt, latestViews } = columns;
  const members = filters.country ? (columns.countries.get(filters.country.toLowerCase()) ?? null) : undefined;
  if (members === null) return () => false;
  const categoryId = filters.categoryId ?? null;
  const after = filters.publishedAfter ? filters.publishedAfter.getTime() : null;
  const before = filters.publishedBefore ? filters.publishedBefore.getTime() : null;
  const minViews = filters.minViews ?? null;
  return (ordinal) =>
    (members === undefined || members[ordinal] === 1) &&
    (categoryId === null || categoryIds[ordinal] === categoryId) &&
    (after === null || publishedAt[ordinal] >= after) &&
    (before === null || publishedAt[ordinal] < before) &&
    (minViews === null || latestViews[ordinal] >= minViews);
}

/** A listing (no `q`): the rows walked in the sort's order, every match counted, the page's kept. */
function listVideos(rows: readonly VideoRecord[], filters: Filters, sort: VideoSort, page: Page): { total: number; videos: VideoRecord[] } {
  const columns = columnsOf(rows);
  const keep = matchesFilters(columns.filters, filters);
  const videos: VideoRecord[] = [];
  let total = 0;
  for (const ordinal of columns.orders[metricSortOf(sort)].ordinals) {
    if (!keep(ordinal)) continue;
    if (total >= page.offset && videos.length < page.limit) videos.push(rows[ordinal]);
    total++;
  }
  return { total, videos };
}

interface Ranked {
  ordinal: number;
  rank: number;
}

/** A text search: the TextIndex's matches filtered, then the page's top of them in the sort's order. */
function searchMatches(
  rows: readonly VideoRecord[],
  matches: TextMatches,
  filters: Filters,
  sort: VideoSort,
  page: Page,
): { total: number; videos: VideoRecord[] } {
  const columns = columnsOf(rows);
  const keep = matchesFilters(columns.filters, filters);
  const kept: Ranked[] = [];
  for (let i = 0; i < matches.docs.length; i++) {
    if (keep(matches.docs[i])) kept.push({ ordinal: matches.docs[i], rank: matches.ranks[i] });
  }
  const { places } = columns.orders[metricSortOf(sort)];
  const byPlace = (a: Ranked, b: Ranked) => places[a.ordinal] - places[b.ordinal];
  const order = sort === "relevance" ? (a: Ranked, b: Ranked) => b.rank - a.rank || byPlace(a, b) : byPlace;
  const videos = firstInOrder(kept, order, page.offset + page.limit)
    .slice(page.offset)
    .map((r) => rows[r.ordinal]);
  return { total: kept.length, videos };
}
