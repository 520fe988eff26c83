import { integerSetting, type Env } from "@apiplat/config";

export interface VideoSettings {
  /** Load the datasets on the first start when the catalogue is empty (VIDEO_ANALYTICS_AUTOLOAD=off to skip). */
  autoLoad: boolean;
  /** YOUTUBE_API_KEY: turns the live YouTube Data API v3 adapter on. */
  youtubeApiKey: string | null;
  /** Regions whose mostPopular chart is fetched (VIDEO_ANALYTICS_REGIONS, default US,GB,CA,FR,IN,MX). */
  regions: string[];
  /** Minutes between two live fetches (default 360: 4 a day). */
  fetchIntervalMs: number;
  /** The API's daily quota in units (default 10,000); the adapter stops for the day before spending more. */
  dailyQuota: number;
  /** The API's base URL (tests point it at a local server). */
  youtubeApiBase: string;
}

export function readSettings(env: Env): VideoSettings {
  const regions = (env.VIDEO_ANALYTICS_REGIONS ?? "US,GB,CA,FR,IN,MX")
    .split(",")
    .map((r) => r.trim().toUpperCase())
    .filter(Boolean);
  for (const region of regions) if (!/^[A-Z]{2}$/.test(region)) throw new Error(`VIDEO_ANALYTICS_REGIONS: "${region}" is not an ISO 3166 code`);
  return {
    autoLoad: (env.VIDEO_ANALYTICS_AUTOLOAD ?? "on") !== "off",
    youtubeApiKey: env.YOUTUBE_API_KEY || null,
    regions,
    fetchIntervalMs: integerSetting(env, "VIDEO_ANALYTICS_FETCH_MINUTES", 360, 5) * 60_000,
    dailyQuota: integerSetting(env, "YOUTUBE_DAILY_QUOTA", 10_000, 1),
    youtubeApiBase: env.YOUTUBE_API_BASE || "https://www.googleapis.com/youtube/v3",
  };
}
