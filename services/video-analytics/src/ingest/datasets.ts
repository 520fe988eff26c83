/**
 * The trending datasets of ../shared/datasets/video-analytics (see its SOURCE.md) as ingestion sources: the
 * category lists, the six full per-country files (one snapshot per video, country and day, in the order of that
 * day's trending list), and the four extended files (fewer columns over a longer span: their snapshots are added,
 * but they never overwrite a video's fuller metadata).
 */
import path from "node:path";
import { MalformedRow, readCsv, readJsonArray, upsertRows, type IngestionSource, type ReaderItem, type UpsertCounts } from "@apiplat/catalogue";
import { refreshSummaries, upsertTrending, type TrendingRows } from "../store/trending-writes.js";
import { channelId, cleanDescription, parseCount, parseFlag, parseTags, parseTrendingDate } from "../domain/videos.js";

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const DAY_MS = 86_400_000;
const SOURCE_SLOTS = 100;
const LINE_SLOTS = 10_000_000;
const FULL_FILE_PRECEDENCE = 1_000_000_000_000;

const ATTRIBUTION = {
  title: "Trending YouTube Video Statistics",
  upstream: "Kaggle datasnaek/youtube-new (YouTube trending lists, 2017-11-14 to 2018-06-14)",
  licence: "CC0 1.0 (as stated on the Kaggle page)",
};

/** One trending file of the datasets and its place among them. */
interface TrendingFile {
  name: string;
  file: string;
  country: string;
  /** The source's slot in the revisions: on the same day, a higher index's metadata wins. */
  index: number;
  /** Full files: row order within a day is the trending list's order; their metadata is the fullest. */
  full: boolean;
  copiedFrom: string;
  title: string;
}

/** A trending file's records, each with its position in its day's list as `__position`. */
async function* withListPositions(items: AsyncIterable<ReaderItem<Record<string, string>>>): AsyncGenerator<ReaderItem<Record<string, string>>> {
  const positions = new Map<string, number>();
  for await (const item of items) {
    if ("value" in item) {
      const day = item.value.trending_date ?? "";
      positions.set(day, (positions.get(day) ?? 0) + 1);
      yield { line: item.line, value: { ...item.value, __position: String(positions.get(day)) } };
    } else yield item;
  }
}

function trendingRows(source: TrendingFile, record: Record<string, string>, line: number): TrendingRows {
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
  return {
    video: {
      video_id: videoId,
      title,
      channel_id: channelTitle ? channelId(channelTitle) : null,
      channel_title: channelTitle,
      category_id: parseCount(record.category_id),
      category_country: source.country,
      published_at: published && !Number.isNaN(published.getTime()) ? published : null,
      tags: parseTags(record.tags),
      description: cleanDescription(record.description),
      thumbnail_url: record.thumbnail_link?.trim() || null,
      comments_disabled: parseFlag(record.comments_disabled),
      ratings_disabled: parseFlag(record.ratings_disabled),
      revision: (Date.parse(day) / DAY_MS) * SOURCE_SLOTS + source.index,
    },
    snapshot: {
      video_id: videoId,
      country: source.country,
      trending_date: day,
      views,
      likes: parseCount(record.likes),
      dislikes: parseCount(record.dislikes),
      comments: parseCount(record.comment_count),
      list_position: source.full ? Number(record.__position) : null,
      // A full file's snapshot (it has the list position) wins over an extended file's of the same day.
      revision: (source.full ? FULL_FILE_PRECEDENCE : 0) + source.index * LINE_SLOTS + line,
    },
  };
}

function trendingSource(source: TrendingFile): IngestionSource<Record<string, string>, TrendingRows> {
  return {
    name: source.name,
    attribution: { file: `video-analytics/${source.file}`, ...ATTRIBUTION, title: `${ATTRIBUTION.title}: ${source.title}`, copied_from: source.copiedFrom },
    read: (context) => withListPositions(readCsv(path.join(context.datasetsDir, "video-analytics", source.file), context)),
    toRows: (record, _context, line) => [trendingRows(source, record, line)],
    upsert: (db, rows) => upsertTrending(db, rows, source.full ? "upsert" : "insert-only"),
    finish: refreshSummaries,
  };
}

interface CategoryRecord {
  country: string;
  item: { id?: string; snippet?: { title?: string } };
}

type CategoryRow = { country: string; category_id: number; title: string };

const CATEGORY_COUNTRIES = ["CA", "DE", "FR", "GB", "IN", "JP", "KR", "MX", "RU", "US"] as const;

function categoriesSource(): IngestionSource<CategoryRecord, CategoryRow> {
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

const SUHANA = "github.com/suhanasooh/YOUTUBE-DATA-ANALYSIS @ b15589d368992314e06b4ca986114e9a1f0860c6";
const CARRIZAL = "github.com/Carrizal1218/dataSet @ 3a487504ca0faa7b78710d9e58233d184083a260";

/** The six full per-country files, then the four extended ones. */
const TRENDING_FILES: TrendingFile[] = [
  { name: "trending-us", file: "USvideos.csv", country: "us", index: 1, full: true, copiedFrom: KARAN, title: "US, 3,000 rows, 2017-11-14 to 11-28" },
  { name: "trending-fr", file: "FRvideos.csv", country: "fr", index: 2, full: true, copiedFrom: KARAN, title: "FR, 2,999 rows, 2017-11-14 to 11-28" },
  { name: "trending-ca", file: "CAvideos.csv", country: "ca", index: 3, full: true, copiedFrom: DEVDIO, title: "CA, 786 rows, 2017-11-14 to 11-17" },
  { name: "trending-gb", file: "GBvideos.csv", country: "gb", index: 4, full: true, copiedFrom: DEVDIO, title: "GB, 760 rows, 2017-11-14 to 11-17" },
  { name: "trending-in", file: "INvideos.csv", country: "in", index: 5, full: true, copiedFrom: SUHANA, title: "IN, 966 rows, 2017-11-14 to 11-18" },
  { name: "trending-mx", file: "MXvideos.csv", country: "mx", index: 6, full: true, copiedFrom: CARRIZAL, title: "MX, 25 rows, 2018-06-14" },
  {
    name: "us-last-trending",
    file: "extended/US_videos_last_trending.csv",
    country: "us",
    index: 7,
    full: false,
    copiedFrom: TEAM,
    title: "US, one row per video from its last trending day, 2017-11-14 to 2018-06-14",
  },
  {
    name: "gb-last-trending",
    file: "extended/GB_videos_last_trending.csv",
    country: "gb",
    index: 8,
    full: false,
    copiedFrom: TEAM,
    title: "GB, one row per video from its last trending day, 2017-11-14 to 2018-06-14",
  },
  {
    name: "us-daily-stats",
    file: "extended/US_videos_daily_stats.csv",
    country: "us",
    index: 9,
    full: false,
    copiedFrom: DASH,
    title: "US daily statistics, 2017-11-14 to 2018-01-29",
  },
  {
    name: "in-daily-stats",
    file: "extended/IN_videos_daily_stats.csv",
    country: "in",
    index: 10,
    full: false,
    copiedFrom: DASH,
    title: "IN daily statistics, 2017-11-14 to 2018-02-03",
  },
];

export function datasetSources(): IngestionSource<any, any>[] {
  return [categoriesSource(), ...TRENDING_FILES.map(trendingSource)];
}
