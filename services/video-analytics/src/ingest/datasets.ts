/**
 * The trending datasets of ../shared/datasets/video-analytics (see its SOURCE.md) as ingestion sources: the
 * category lists, the six full per-country files (one snapshot per video, country and day, in the order of that
 * day's trending list), and the four extended files (fewer columns over a longer span: their snapshots are added,
 * but they never overwrite a video's fuller metadata).
 */
import path from "node:path";
import {
  MalformedRow,
  readCsv,
  readJsonArray,
  refreshVocabulary,
  settleTables,
  upsertRows,
  type IngestionSource,
  type ReaderItem,
  type UpsertCounts,
} from "@apiplat/catalogue";
import type { Database, Queryable } from "@apiplat/storage";
import { channelId, cleanDescription, parseCount, parseFlag, parseTags, parseTrendingDate } from "../domain/videos.js";

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

export type SnapshotRow = {
  video_id: string;
  country: string;
  trending_date: string;
  views: number;
  likes: number | null;
  dislikes: number | null;
  comments: number | null;
  list_position: number | null;
  revision: number;
};

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

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const DAY_MS = 86_400_000;
const SOURCE_SLOTS = 100;
const LINE_SLOTS = 10_000_000;
const FULL_FILE_PRECEDENCE = 1_000_000_000_000;

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

const ATTRIBUTION = {
  title: "Trending YouTube Video Statistics",
  upstream: "Kaggle datasnaek/youtube-new (YouTube trending lists, 2017-11-14 to 2018-06-14)",
  licence: "CC0 1.0 (as stated on the Kaggle page)",
};

function trendingSource(options: {
  name: string;
  file: string;
  country: string;
  index: number;
  copiedFrom: string;
  title: string;
  /** Full files: row order within a day is the trending list's order; their metadata is the fullest. */
  full: boolean;
}): IngestionSource<Record<string, string>, TrendingRows> {
  return {
    name: options.name,
    attribution: { file: `video-analytics/${options.file}`, ...ATTRIBUTION, title: `${ATTRIBUTION.title}: ${options.title}`, copied_from: options.copiedFrom },
    read: (context) => {
      const positions = new Map<string, number>();
      return (async function* () {
        for await (const item of readCsv(path.join(context.datasetsDir, "video-analytics", options.file), context)) {
          if ("value" in item) {
            const day = item.value.trending_date ?? "";
            positions.set(day, (positions.get(day) ?? 0) + 1);
            yield { line: item.line, value: { ...item.value, __position: String(positions.get(day)) } };
          } else yield item;
        }
      })();
    },
    toRows(record, _context, line) {
      const videoId = (record.video_id ?? "").trim();
      if (!VIDEO_ID.test(videoId)) throw new MalformedRow(`video_id "${videoId}" is not an 11-character YouTube id`);
      const day = parseTrendingDate(record.trending_date ?? "");
      if (!day) throw new MalformedRow(`trending_date "${record.trending_date}" is not a YY.DD.MM day`);
      const views = parseCount(record.views);
      if (views === null) throw new MalformedRow(`views "${record.views}" is not a count`);
      const title = (record.title ?? "").trim();
      if (!title) throw new MalformedRow("title is missing");
      const channelTitle = record.channel_title?.trim() || null;
      const published = record.publish_time ? new Date(record.publish_time) : null;
      const categoryId = parseCount(record.category_id);
      return [
        {
          video: {
            video_id: videoId,
            title,
            channel_id: channelTitle ? channelId(channelTitle) : null,
            channel_title: channelTitle,
            category_id: categoryId,
            category_country: options.country,
            published_at: published && !Number.isNaN(published.getTime()) ? published : null,
            tags: parseTags(record.tags),
            description: cleanDescription(record.description),
            thumbnail_url: record.thumbnail_link?.trim() || null,
            comments_disabled: parseFlag(record.comments_disabled),
            ratings_disabled: parseFlag(record.ratings_disabled),
            revision: (Date.parse(day) / DAY_MS) * SOURCE_SLOTS + options.index,
          },
          snapshot: {
            video_id: videoId,
            country: options.country,
            trending_date: day,
            views,
            likes: parseCount(record.likes),
            dislikes: parseCount(record.dislikes),
            comments: parseCount(record.comment_count),
            list_position: options.full ? Number(record.__position) : null,
            // A full file's snapshot (it has the list position) wins over an extended file's of the same day.
            revision: (options.full ? FULL_FILE_PRECEDENCE : 0) + options.index * LINE_SLOTS + line,
          },
        },
      ];
    },
    upsert: (db, rows) => upsertTrending(db, rows, options.full ? "upsert" : "insert-only"),
    finish: refreshSummaries,
  };
}

interface CategoryRecord {
  country: string;
  item: { id?: string; snippet?: { title?: string } };
}

type CategoryRow = { country: string; category_id: number; title: string };

export const CATEGORY_COUNTRIES = ["CA", "DE", "FR", "GB", "IN", "JP", "KR", "MX", "RU", "US"] as const;

export function categoriesSource(): IngestionSource<CategoryRecord, CategoryRow> {
  return {
    name: "categories",
    attribution: {
      file: "video-analytics/categories/<CC>_category_id.json",
      title: "YouTube videoCategoryListResponse files for 10 countries",
      upstream: "YouTube Data API v3 (via Kaggle datasnaek/youtube-new)",
      licence: ATTRIBUTION.licence,
      copied_from: "github.com/Naf-byte/Foundation-Of-Computer-Science @ 2b834d79fd39294595f78131637dc5b14260276a",
    },
    async *read(context) {
      for (const country of CATEGORY_COUNTRIES) {
        const file = path.join(context.datasetsDir, "video-analytics/categories", `${country}_category_id.json`);
        for await (const item of readJsonArray<CategoryRecord["item"]>(file, "items")) {
          yield "value" in item ? { line: item.line, value: { country: country.toLowerCase(), item: item.value } } : (item as ReaderItem<CategoryRecord>);
        }
      }
    },
    toRows({ country, item }) {
      const id = parseCount(item.id);
      const title = item.snippet?.title?.trim();
      if (id === null || !title) throw new MalformedRow("a category without a numeric id or a title");
      return [{ country, category_id: id, title }];
    },
    upsert: (db, rows) => upsertRows(db, { table: "categories", key: ["country", "category_id"], columns: ["country", "category_id", "title"] }, rows),
  };
}

const KARAN = "github.com/karanmurthy7/youtube-tag-recommender @ 28f497ae1c39461d733f98c0693affddbbaa1392";
const DEVDIO = "github.com/devdio/flyai_datasets @ 683f4c2e6f79feaaac23d55040871a8b80a962cb";
const TEAM = "github.com/omaslamani/TeamLikeNSubscribe @ 7914578df10c184cd167e96dd4611b9f6133edde";
const DASH = "github.com/Abhijeet2729/YouTube-Trending-Dashboard @ bf37de2e2d1472af3bbaa5352b7161984e18d241";

export function datasetSources(): IngestionSource<any, any>[] {
  return [
    categoriesSource(),
    trendingSource({
      name: "trending-us",
      file: "USvideos.csv",
      country: "us",
      index: 1,
      full: true,
      copiedFrom: KARAN,
      title: "US, 3,000 rows, 2017-11-14 to 11-28",
    }),
    trendingSource({
      name: "trending-fr",
      file: "FRvideos.csv",
      country: "fr",
      index: 2,
      full: true,
      copiedFrom: KARAN,
      title: "FR, 2,999 rows, 2017-11-14 to 11-28",
    }),
    trendingSource({
      name: "trending-ca",
      file: "CAvideos.csv",
      country: "ca",
      index: 3,
      full: true,
      copiedFrom: DEVDIO,
      title: "CA, 786 rows, 2017-11-14 to 11-17",
    }),
    trendingSource({
      name: "trending-gb",
      file: "GBvideos.csv",
      country: "gb",
      index: 4,
      full: true,
      copiedFrom: DEVDIO,
      title: "GB, 760 rows, 2017-11-14 to 11-17",
    }),
    trendingSource({
      name: "trending-in",
      file: "INvideos.csv",
      country: "in",
      index: 5,
      full: true,
      copiedFrom: "github.com/suhanasooh/YOUTUBE-DATA-ANALYSIS @ b15589d368992314e06b4ca986114e9a1f0860c6",
      title: "IN, 966 rows, 2017-11-14 to 11-18",
    }),
    trendingSource({
      name: "trending-mx",
      file: "MXvideos.csv",
      country: "mx",
      index: 6,
      full: true,
      copiedFrom: "github.com/Carrizal1218/dataSet @ 3a487504ca0faa7b78710d9e58233d184083a260",
      title: "MX, 25 rows, 2018-06-14",
    }),
    trendingSource({
      name: "us-last-trending",
      file: "extended/US_videos_last_trending.csv",
      country: "us",
      index: 7,
      full: false,
      copiedFrom: TEAM,
      title: "US, one row per video from its last trending day, 2017-11-14 to 2018-06-14",
    }),
    trendingSource({
      name: "gb-last-trending",
      file: "extended/GB_videos_last_trending.csv",
      country: "gb",
      index: 8,
      full: false,
      copiedFrom: TEAM,
      title: "GB, one row per video from its last trending day, 2017-11-14 to 2018-06-14",
    }),
    trendingSource({
      name: "us-daily-stats",
      file: "extended/US_videos_daily_stats.csv",
      country: "us",
      index: 9,
      full: false,
      copiedFrom: DASH,
      title: "US daily statistics, 2017-11-14 to 2018-01-29",
    }),
    trendingSource({
      name: "in-daily-stats",
      file: "extended/IN_videos_daily_stats.csv",
      country: "in",
      index: 10,
      full: false,
      copiedFrom: DASH,
      title: "IN daily statistics, 2017-11-14 to 2018-02-03",
    }),
  ];
}
