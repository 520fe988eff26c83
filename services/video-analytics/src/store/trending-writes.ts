/** What an ingestion writes: videos and their daily trending snapshots, then the summaries derived from them. */
import { refreshVocabulary, settleTables, upsertRows, type UpsertCounts } from "@apiplat/catalogue";
import type { Database, Queryable } from "@apiplat/storage";
import type { Snapshot } from "../domain/videos.js";

export type VideoRow = {
  video_id: string;
  title: string;
  channel_id: string | null;
  channel_title: string | null;
  category_id: number | null;
  category_country: string;
  published_at: Date | null;
  tags: string[];
  description: string | null;
  thumbnail_url: string | null;
  comments_disabled: boolean | null;
  ratings_disabled: boolean | null;
  revision: number;
};

/** A video's day on a country's trending list (domain's Snapshot), as ingestion writes it. */
type SnapshotRow = Snapshot & { video_id: string; revision: number };

export type TrendingRows = { video: VideoRow; snapshot: SnapshotRow };

const VIDEO_COLUMNS = [
  "video_id",
  "title",
  "channel_id",
  "channel_title",
  "category_id",
  "category_country",
  "published_at",
  "tags",
  "description",
  "thumbnail_url",
  "comments_disabled",
  "ratings_disabled",
  "revision",
] as const;
const SNAPSHOT_COLUMNS = ["video_id", "country", "trending_date", "views", "likes", "dislikes", "comments", "list_position", "revision"] as const;

export async function upsertTrending(db: Queryable, rows: TrendingRows[], mode: "upsert" | "insert-only"): Promise<UpsertCounts> {
  await upsertRows(
    db,
    { table: "videos", key: ["video_id"], columns: VIDEO_COLUMNS, revision: "revision", mode },
    rows.map((r) => r.video),
  );
  return upsertRows(
    db,
    { table: "snapshots", key: ["video_id", "country", "trending_date"], columns: SNAPSHOT_COLUMNS, revision: "revision" },
    rows.map((r) => r.snapshot),
  );
}

/**
 * After a load: each snapshot's view velocity (views gained per day since the video's previous snapshot in that
 * country; for its first snapshot, views per day since publication, at least one day), each video's summary, the
 * search vocabulary.
 */
export async function refreshSummaries(db: Database): Promise<void> {
  await db.query(
    `UPDATE snapshots s SET velocity = v.velocity
     FROM (
       SELECT s2.video_id, s2.country, s2.trending_date,
         CASE WHEN lag(s2.views) OVER w IS NOT NULL
              THEN (s2.views - lag(s2.views) OVER w)::float8 / greatest(s2.trending_date - lag(s2.trending_date) OVER w, 1)
              ELSE s2.views::float8 / greatest(extract(epoch FROM (s2.trending_date::timestamp AT TIME ZONE 'UTC' - coalesce(vid.published_at, s2.trending_date::timestamp AT TIME ZONE 'UTC' - interval '1 day'))) / 86400, 1)
         END AS velocity
       FROM snapshots s2 JOIN videos vid ON vid.video_id = s2.video_id
       WINDOW w AS (PARTITION BY s2.video_id, s2.country ORDER BY s2.trending_date)
     ) v
     WHERE s.video_id = v.video_id AND s.country = v.country AND s.trending_date = v.trending_date
       AND s.velocity IS DISTINCT FROM v.velocity`,
  );
  await db.query(
    `UPDATE videos v SET latest_trending_date = a.latest_date, latest_views = a.views, latest_likes = a.likes,
       latest_dislikes = a.dislikes, latest_comments = a.comments, first_trending_date = a.first_date, first_views = a.first_views,
       days_trending = a.days, countries = a.countries, peak_rank = a.peak_rank,
       engagement_rate = CASE WHEN a.views > 0 THEN round(((coalesce(a.likes, 0) + coalesce(a.comments, 0))::numeric / a.views), 6)::float8 END,
       views_gained_per_day = CASE WHEN a.latest_date > a.first_date THEN round(((a.views - a.first_views)::numeric / (a.latest_date - a.first_date)), 2)::float8 END
     FROM (
       SELECT video_id,
         (array_agg(views ORDER BY trending_date DESC, views DESC))[1] AS views,
         (array_agg(likes ORDER BY trending_date DESC, views DESC))[1] AS likes,
         (array_agg(dislikes ORDER BY trending_date DESC, views DESC))[1] AS dislikes,
         (array_agg(comments ORDER BY trending_date DESC, views DESC))[1] AS comments,
         (array_agg(views ORDER BY trending_date, views DESC))[1] AS first_views,
         max(trending_date) AS latest_date, min(trending_date) AS first_date,
         count(DISTINCT trending_date)::int AS days,
         array_agg(DISTINCT country ORDER BY country) AS countries,
         min(list_position) AS peak_rank
       FROM snapshots GROUP BY video_id
     ) a
     WHERE v.video_id = a.video_id AND (v.latest_views, v.latest_trending_date, v.days_trending, v.countries, v.peak_rank, v.first_views, v.latest_likes, v.latest_comments)
       IS DISTINCT FROM (a.views, a.latest_date, a.days, a.countries, a.peak_rank, a.first_views, a.likes, a.comments)`,
  );
  await refreshVocabulary(db, "SELECT title || ' ' || array_to_string(tags, ' ') FROM videos");
  await settleTables(db, ["videos", "snapshots", "search_vocabulary"]);
}

/** The videos of a region that trended since a date in a live fetch (a revision at least `minRevision`), apart from `exclude`. */
export async function recentlyTrending(db: Queryable, region: string, since: string, minRevision: number, exclude: Set<string>): Promise<string[]> {
  const { rows } = await db.query<{ video_id: string }>(
    "SELECT DISTINCT video_id FROM snapshots WHERE country = $1 AND trending_date >= $2::date AND revision >= $3",
    [region.toLowerCase(), since, minRevision],
  );
  return rows.map((r) => r.video_id).filter((id) => !exclude.has(id));
}
