import { integerSetting, type Env } from "@apiplat/config";

export interface SearchResultsSettings {
  /** Load the datasets on the first start when the index is empty (SEARCH_RESULTS_AUTOLOAD=off to skip). */
  autoLoad: boolean;
  /** Added to the rank of a page whose title matches the whole query (SEARCH_RESULTS_TITLE_BOOST, 0 to 1). */
  titleBoost: number;
  /** Plain queries match pages with any of their words, all-words pages first (SEARCH_RESULTS_MATCH=any, default) or only pages with all (all). */
  anyWord: boolean;
  crawl: {
    userAgent: string;
    maxPages: number;
    maxBytesPerPage: number;
    delayMs: number;
    sameHost: boolean;
  };
}

function boost(raw: string | undefined): number {
  if (raw === undefined) return 0.3;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new Error("SEARCH_RESULTS_TITLE_BOOST must be a number from 0 to 1");
  return value;
}

function matchSetting(raw: string | undefined): boolean {
  if (raw === undefined || raw === "any") return true;
  if (raw === "all") return false;
  throw new Error("SEARCH_RESULTS_MATCH must be any or all");
}

export function readSettings(env: Env): SearchResultsSettings {
  return {
    autoLoad: (env.SEARCH_RESULTS_AUTOLOAD ?? "on") !== "off",
    titleBoost: boost(env.SEARCH_RESULTS_TITLE_BOOST),
    anyWord: matchSetting(env.SEARCH_RESULTS_MATCH),
    crawl: {
      userAgent: env.SEARCH_RESULTS_CRAWL_USER_AGENT ?? "apiplat-search-bot/1.0",
      maxPages: integerSetting(env, "SEARCH_RESULTS_CRAWL_MAX_PAGES", 100, 1, 100_000),
      maxBytesPerPage: integerSetting(env, "SEARCH_RESULTS_CRAWL_MAX_BYTES", 2 * 1024 * 1024, 1024),
      delayMs: integerSetting(env, "SEARCH_RESULTS_CRAWL_DELAY_MS", 1_000, 0),
      sameHost: (env.SEARCH_RESULTS_CRAWL_SAME_HOST ?? "on") !== "off",
    },
  };
}

/** The crawl's settings with the command's flags on top (--max-pages, --max-bytes, --delay-ms, --any-host). */
export function crawlSettings(base: SearchResultsSettings["crawl"], flags: Record<string, string[]>): SearchResultsSettings["crawl"] {
  const number = (flag: string, fallback: number, min: number) => {
    const raw = flags[flag]?.[0];
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min) throw new Error(`--${flag} must be a whole number of at least ${min}`);
    return value;
  };
  return {
    ...base,
    maxPages: number("max-pages", base.maxPages, 1),
    maxBytesPerPage: number("max-bytes", base.maxBytesPerPage, 1024),
    delayMs: number("delay-ms", base.delayMs, 0),
    sameHost: flags["any-host"] ? false : base.sameHost,
  };
}
