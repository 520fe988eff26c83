import { integerSetting, type Env } from "@apiplat/config";
import type { FeedConfig } from "./ingest/feeds.js";

export interface NewsSettings {
  /** Load the datasets on the first start when the catalogue is empty (NEWS_AUTOLOAD=off to skip). */
  autoLoad: boolean;
  /** Live feeds (NEWS_FEEDS, a JSON array); none by default. */
  feeds: FeedConfig[];
  feedIntervalMs: number;
}

function readFeeds(raw: string | undefined): FeedConfig[] {
  if (!raw) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('NEWS_FEEDS must be a JSON array such as [{"url":"https://...","name":"...","country":"us","language":"en","category":"technology"}]');
  }
  if (!Array.isArray(parsed)) throw new Error("NEWS_FEEDS must be a JSON array of feeds");
  return parsed.map((feed: Record<string, unknown>, index) => {
    const url = String(feed.url ?? "");
    if (!/^https?:\/\//.test(url)) throw new Error(`NEWS_FEEDS[${index}].url must be an http(s) URL`);
    if (typeof feed.name !== "string" || !feed.name) throw new Error(`NEWS_FEEDS[${index}].name is required`);
    const language = typeof feed.language === "string" ? feed.language.toLowerCase() : "en";
    if (!/^[a-z]{2}$/.test(language)) throw new Error(`NEWS_FEEDS[${index}].language must be an ISO 639-1 code such as "en"`);
    const country = typeof feed.country === "string" ? feed.country.toLowerCase() : null;
    if (country !== null && !/^[a-z]{2}$/.test(country)) throw new Error(`NEWS_FEEDS[${index}].country must be an ISO 3166 code such as "us"`);
    return {
      url,
      name: feed.name,
      source_id: typeof feed.source_id === "string" ? feed.source_id : undefined,
      country,
      language,
      category: typeof feed.category === "string" ? feed.category.toLowerCase() : null,
    };
  });
}

export function readSettings(env: Env): NewsSettings {
  return {
    autoLoad: (env.NEWS_AUTOLOAD ?? "on") !== "off",
    feeds: readFeeds(env.NEWS_FEEDS),
    feedIntervalMs: integerSetting(env, "NEWS_FEED_INTERVAL_MINUTES", 30, 1) * 60_000,
  };
}
