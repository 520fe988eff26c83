import { SqlFilter } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import type { Snapshot } from "../domain/videos.js";
import type { VideoRow } from "./trending-writes.js";

/** A video as searches and views read it: the row ingestion writes, with its category's name and the summary derived from its snapshots. */
export type VideoRecord = Omit<VideoRow, "category_country" | "revision"> & {
  category_name: string | null;
  latest_trending_date: string | null;
  latest_views: number | null;
  latest_likes: number | null;
  latest_dislikes: number | null;
  latest_comments: number | null;
  first_trending_date: string | null;
  days_trending: number | null;
  countries: string[] | null;
  peak_rank: number | null;
  engagement_rate: number | null;
  views_gained_per_day: number | null;
};

/** The category's name in the video's own country, else the US name (ids are the same list worldwide). */
const CATEGORY_NAME = `coalesce(
  (SELECT c.title FROM categories c WHERE c.country = v.category_country AND c.category_id = v.category_id),
  (SELECT c.title FROM categories c WHERE c.country = 'us' AND c.category_id = v.category_id)) AS category_name`;

export const VIDEO_COLUMNS = `v.video_id, v.title, v.channel_id, v.channel_title, v.category_id, ${CATEGORY_NAME}, v.published_at, v.tags,
  v.description, v.thumbnail_url, v.comments_disabled, v.ratings_disabled, v.latest_trending_date::text AS latest_trending_date,
  v.latest_views, v.latest_likes, v.latest_dislikes, v.latest_comments, v.first_trending_date::text AS first_trending_date,
  v.days_trending, v.countries, v.peak_rank, v.engagement_rate, v.views_gained_per_day`;

export async function findVideo(db: Queryable, videoId: string): Promise<VideoRecord | null> {
  const { rows } = await db.query<VideoRecord>(`SELECT ${VIDEO_COLUMNS} FROM videos v WHERE v.video_id = $1`, [videoId]);
  return rows[0] ?? null;
}

export async function snapshotsOf(db: Queryable, videoId: string): Promise<Snapshot[]> {
  const { rows } = await db.query<Snapshot>(
    `SELECT country, trending_date::text AS trending_date, views, likes, dislikes, comments, list_position
     FROM snapshots WHERE video_id = $1 ORDER BY trending_date, country`,
    [videoId],
  );
  return rows;
}

export async function channelVideos(db: Queryable, channelId: string): Promise<VideoRecord[]> {
  const { rows } = await db.query<VideoRecord>(
    `SELECT ${VIDEO_COLUMNS} FROM videos v WHERE v.channel_id = $1 ORDER BY v.latest_views DESC NULLS LAST, v.video_id`,
    [channelId],
  );
  return rows;
}

export async function channelHistory(db: Queryable, channelId: string): Promise<{ trending_date: string; videos: number; countries: string[] }[]> {
  const { rows } = await db.query<{ trending_date: string; videos: number; countries: string[] }>(
    `SELECT s.trending_date::text AS trending_date, count(DISTINCT s.video_id)::int AS videos, array_agg(DISTINCT s.country ORDER BY s.country) AS countries
     FROM snapshots s JOIN videos v ON v.video_id = s.video_id WHERE v.channel_id = $1
     GROUP BY s.trending_date ORDER BY s.trending_date`,
    [channelId],
  );
  return rows;
}

/** Countries with snapshots, and each one's newest day. */
export async function trendingCountries(db: Queryable): Promise<{ country: string; newest: string }[]> {
  const { rows } = await db.query<{ country: string; newest: string }>(
    "SELECT country, max(trending_date)::text AS newest FROM snapshots GROUP BY country ORDER BY country",
  );
  return rows;
}

export async function previousDay(db: Queryable, country: string, day: string): Promise<string | null> {
  const { rows } = await db.query<{ day: string | null }>(
    "SELECT max(trending_date)::text AS day FROM snapshots WHERE country = $1 AND trending_date < $2::date",
    [country, day],
  );
  return rows[0].day;
}

interface TrendingEntry {
  video_id: string;
  views: number;
  likes: number | null;
  dislikes: number | null;
  comments: number | null;
  list_position: number | null;
  velocity: number;
}

/** A day's trending videos of a country, by view velocity (fastest first): the ranking, without the videos' details. */
export async function trendingDay(db: Queryable, country: string, day: string, categoryId?: number): Promise<TrendingEntry[]> {
  const filter = new SqlFilter().equals("s.country", country).where((p) => `s.trending_date = ${p(day)}::date`);
  if (categoryId !== undefined) filter.where((p) => `v.category_id = ${p(categoryId)}`);
  const { rows } = await db.query<TrendingEntry>(
    `SELECT s.video_id, s.views, s.likes, s.dislikes, s.comments, s.list_position, s.velocity
     FROM snapshots s ${categoryId === undefined ? "" : "JOIN videos v ON v.video_id = s.video_id"} ${filter.sql}
     ORDER BY s.velocity DESC NULLS LAST, s.video_id`,
    filter.params,
  );
  return rows;
}

/** The details of some videos (a page of a ranking), by id. */
export async function videosByIds(db: Queryable, ids: readonly string[]): Promise<Map<string, VideoRecord>> {
  const { rows } = await db.query<VideoRecord>(`SELECT ${VIDEO_COLUMNS} FROM videos v WHERE v.video_id = ANY($1::text[])`, [ids]);
  return new Map(rows.map((r) => [r.video_id, r]));
}

/** Whether a category id is in any country's list of the data. */
export async function categoryExists(db: Queryable, id: number): Promise<boolean> {
  const { rows } = await db.query("SELECT 1 FROM categories WHERE category_id = $1 LIMIT 1", [id]);
  return rows.length > 0;
}

/** Category ids by name (case-insensitive), in any country's list. */
export async function categoryIdByName(db: Queryable, name: string): Promise<number | null> {
  const { rows } = await db.query<{ category_id: number }>(
    "SELECT category_id FROM categories WHERE lower(title) = lower($1) ORDER BY (country = 'us') DESC LIMIT 1",
    [name],
  );
  return rows[0]?.category_id ?? null;
}
