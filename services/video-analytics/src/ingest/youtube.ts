/**
 * Live snapshots from the YouTube Data API v3, used when YOUTUBE_API_KEY is set: each region's mostPopular chart
 * (`videos?part=snippet,statistics&chart=mostPopular&regionCode=XX&maxResults=50`, 1 quota unit per page), then
 * `videos?id=` for videos that trended in the last week but left today's chart (1 unit per 50 ids), so their
 * growth keeps being measured. Every call goes through the outbound guard. Calls stop for the UTC day before the
 * daily quota would be exceeded. A snapshot is stored per video, region and UTC day, like the datasets'.
 */
import { MalformedRow, type IngestionSource } from "@apiplat/catalogue";
import type { OutboundClient } from "@apiplat/outbound-guard";
import type { Queryable } from "@apiplat/storage";
import { channelId } from "../domain/videos.js";
import { recentlyTrending, refreshSummaries, upsertTrending, type TrendingRows } from "../store/trending-writes.js";

/** The parts of a `youtube#video` resource the adapter reads (https://developers.google.com/youtube/v3/docs/videos). */
export interface ApiVideo {
  id: string;
  snippet?: {
    publishedAt?: string;
    channelId?: string;
    title?: string;
    description?: string;
    thumbnails?: Record<string, { url?: string; width?: number; height?: number }>;
    channelTitle?: string;
    tags?: string[];
    categoryId?: string;
  };
  statistics?: { viewCount?: string; likeCount?: string; dislikeCount?: string; commentCount?: string };
}

interface ApiRecord {
  region: string;
  day: string;
  position: number | null;
  video: ApiVideo;
  fetchedAt: number;
}

interface YouTubeOptions {
  apiKey: string;
  regions: readonly string[];
  base: string;
  dailyQuota: number;
  outbound: OutboundClient;
}

const PAGE_SIZE = 50;
const UNIT_COST = 1;
const MAX_CHART_PAGES = 4;

/** Quota units spent per UTC day, in this process. */
class QuotaMeter {
  private day = "";
  private spent = 0;
  constructor(private readonly limit: number) {}
  take(now: Date, units: number): boolean {
    const day = now.toISOString().slice(0, 10);
    if (day !== this.day) [this.day, this.spent] = [day, 0];
    if (this.spent + units > this.limit) return false;
    this.spent += units;
    return true;
  }
}

function count(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

const LIVE_REVISION = 2_000_000_000_000;

type ApiAnswer = { items?: ApiVideo[]; nextPageToken?: string };
type ApiCall = (path: string, params: Record<string, string>, now: Date) => Promise<ApiAnswer>;

/** A call to the API through the outbound guard, refused before it would exceed the day's quota. */
function youtubeApi(options: YouTubeOptions): ApiCall {
  const quota = new QuotaMeter(options.dailyQuota);
  return async (path, params, now) => {
    if (!quota.take(now, UNIT_COST)) throw new Error("the YouTube API's daily quota is spent; the next fetch waits for the next UTC day");
    const url = new URL(`${options.base.replace(/\/$/, "")}/${path}`);
    for (const [key, value] of Object.entries({ ...params, key: options.apiKey })) url.searchParams.set(key, value);
    const response = await options.outbound.fetch(url.toString(), { timeoutMs: 15_000, maxBytes: 5 * 1024 * 1024 });
    if (response.status !== 200) throw new Error(`the YouTube API answered HTTP ${response.status} for ${path}`);
    return JSON.parse(response.body.toString("utf8")) as ApiAnswer;
  };
}

/** The region's mostPopular chart, in its order. */
async function* chartVideos(call: ApiCall, region: string, at: Date): AsyncGenerator<ApiVideo> {
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_CHART_PAGES; page++) {
    const params: Record<string, string> = { part: "snippet,statistics", chart: "mostPopular", regionCode: region, maxResults: String(PAGE_SIZE) };
    if (pageToken) params.pageToken = pageToken;
    const body = await call("videos", params, at);
    yield* body.items ?? [];
    pageToken = body.nextPageToken;
    if (!pageToken) break;
  }
}

/** Today's chart of a region, then the videos that trended there in the last week but left it. */
async function* regionRecords(call: ApiCall, db: Queryable, region: string, at: Date): AsyncGenerator<ApiRecord> {
  const day = at.toISOString().slice(0, 10);
  const seen = new Set<string>();
  let position = 0;
  for await (const video of chartVideos(call, region, at)) {
    seen.add(video.id);
    yield { region, day, position: ++position, video, fetchedAt: at.getTime() };
  }
  const since = new Date(at.getTime() - 7 * 86_400_000).toISOString().slice(0, 10);
  const others = await recentlyTrending(db, region, since, LIVE_REVISION, seen);
  for (let i = 0; i < others.length; i += PAGE_SIZE) {
    const body = await call("videos", { part: "snippet,statistics", id: others.slice(i, i + PAGE_SIZE).join(",") }, at);
    for (const video of body.items ?? []) yield { region, day, position: null, video, fetchedAt: at.getTime() };
  }
}

function trendingRows({ region, day, position, video, fetchedAt }: ApiRecord): TrendingRows {
  const snippet = video.snippet;
  const views = count(video.statistics?.viewCount);
  if (!/^[A-Za-z0-9_-]{11}$/.test(video.id ?? "")) throw new MalformedRow(`"${video.id}" is not a video id`);
  if (!snippet?.title || views === null) throw new MalformedRow(`video ${video.id} has no title or no view count`);
  const published = snippet.publishedAt ? new Date(snippet.publishedAt) : null;
  const thumbnail = snippet.thumbnails?.default?.url ?? snippet.thumbnails?.medium?.url ?? null;
  return {
    video: {
      video_id: video.id,
      title: snippet.title,
      channel_id: snippet.channelTitle ? channelId(snippet.channelTitle) : null,
      channel_title: snippet.channelTitle ?? null,
      category_id: count(snippet.categoryId),
      category_country: region.toLowerCase(),
      published_at: published && !Number.isNaN(published.getTime()) ? published : null,
      tags: snippet.tags ?? [],
      description: snippet.description?.trim() || null,
      thumbnail_url: thumbnail,
      comments_disabled: video.statistics?.commentCount === undefined ? null : false,
      ratings_disabled: video.statistics?.likeCount === undefined ? null : false,
      revision: LIVE_REVISION + Math.floor(fetchedAt / 1000),
    },
    snapshot: {
      video_id: video.id,
      country: region.toLowerCase(),
      trending_date: day,
      views,
      likes: count(video.statistics?.likeCount),
      // Public dislike counts ended in December 2021: absent from the API, so null.
      dislikes: count(video.statistics?.dislikeCount),
      comments: count(video.statistics?.commentCount),
      list_position: position,
      revision: LIVE_REVISION + Math.floor(fetchedAt / 1000),
    },
  };
}

export function youtubeSource(options: YouTubeOptions): IngestionSource<ApiRecord, TrendingRows> {
  const call = youtubeApi(options);
  return {
    name: "youtube-api",
    live: true,
    attribution: {
      file: `YouTube Data API v3 (${options.regions.join(", ")})`,
      title: "Live mostPopular charts and video statistics",
      upstream: "YouTube Data API v3, videos.list",
      licence: "YouTube API Services Terms of Service",
    },
    async *read({ db, now }) {
      let line = 0;
      for (const region of options.regions) {
        const at = now();
        try {
          for await (const value of regionRecords(call, db, region, at)) yield { line: ++line, value };
        } catch (error) {
          yield { line: ++line, malformed: `region ${region}: ${(error as Error).message}` };
        }
      }
    },
    toRows: (record) => [trendingRows(record)],
    upsert: (db, rows) => upsertTrending(db, rows, "upsert"),
    finish: refreshSummaries,
  };
}
