import path from "node:path";
import { integerSetting, listSetting, type PlatformConfig } from "@apiplat/config";
import { SOURCES } from "./domain/adapters/index.js";
import { SOURCE_IDS, type SourceId } from "./domain/types.js";
import { DEFAULT_FETCH_OPTIONS, type FeedSource, type FetchOptions } from "./rates/fetcher.js";
import { parseSchedule } from "./rates/scheduler.js";

export interface CurrencySettings {
  feeds: FeedSource[];
  fetch: FetchOptions;
  /** Minutes after midnight UTC of each daily fetch; empty = no scheduled fetch. */
  schedule: number[];
  fetchOnStart: boolean;
  /** Files or directories ingested when the store holds no rates at start-up. */
  seedPaths: string[];
  /** Days of history kept from each seed file, counted back from its newest table (null: everything). */
  seedHistoryDays: number | null;
}

const DEFAULT_SCHEDULE = "15:30,22:30";
/** A new database (the local start's, say) is seeded with about a year of history; the full ECB history (1999-) is one `pnpm ingest` away. */
const DEFAULT_SEED_HISTORY_DAYS = 400;

/** Settings for tests and embedding: no network, no schedule, no seed unless given. */
export function offlineSettings(overrides: Partial<CurrencySettings> = {}): CurrencySettings {
  return { feeds: [], fetch: DEFAULT_FETCH_OPTIONS, schedule: [], fetchOnStart: false, seedPaths: [], seedHistoryDays: null, ...overrides };
}

function envKey(source: SourceId): string {
  return `CURRENCY_${source.toUpperCase().replace("-", "_")}_URL`;
}

/** The service's own settings, read from the environment once by the manifest. */
export function settingsFromConfig(config: PlatformConfig): CurrencySettings {
  const env = config.env;
  const enabled = listSetting(env.CURRENCY_SOURCES ?? SOURCE_IDS.join(","));
  for (const id of enabled)
    if (!(SOURCE_IDS as readonly string[]).includes(id)) throw new Error(`CURRENCY_SOURCES: unknown source "${id}" (known: ${SOURCE_IDS.join(", ")})`);
  const feeds = SOURCES.filter((s) => enabled.includes(s.id)).map((s) => ({ source: s.id, url: env[envKey(s.id)] || s.defaultUrl }));
  const scheduleText = env.CURRENCY_FETCH_SCHEDULE ?? DEFAULT_SCHEDULE;
  const seed = env.CURRENCY_SEED_DIR ?? path.join(config.datasetsDir, "currency-exchange");
  return {
    feeds,
    fetch: {
      ...DEFAULT_FETCH_OPTIONS,
      retries: integerSetting(env, "CURRENCY_FETCH_RETRIES", DEFAULT_FETCH_OPTIONS.retries),
      retryDelayMs: integerSetting(env, "CURRENCY_FETCH_RETRY_DELAY_MS", DEFAULT_FETCH_OPTIONS.retryDelayMs),
      timeoutMs: integerSetting(env, "CURRENCY_FETCH_TIMEOUT_MS", DEFAULT_FETCH_OPTIONS.timeoutMs),
    },
    schedule: scheduleText === "off" ? [] : parseSchedule(scheduleText),
    fetchOnStart: env.CURRENCY_FETCH_ON_START === "true",
    seedPaths: seed === "off" || seed === "" ? [] : [seed],
    seedHistoryDays: env.CURRENCY_SEED_HISTORY_DAYS === "all" ? null : integerSetting(env, "CURRENCY_SEED_HISTORY_DAYS", DEFAULT_SEED_HISTORY_DAYS),
  };
}
