/** Pure rules that turn the datasets' records into articles: ids, canonical URLs, publishers, countries, categories. */
import { createHash } from "node:crypto";

export type Article = {
  id: string;
  dataset: string;
  source_id: string;
  source_name: string;
  author: string | null;
  title: string;
  description: string | null;
  url: string | null;
  /** The URL's host without `www.`, for the `domains` filter. */
  domain: string | null;
  image_url: string | null;
  published_at: Date;
  category: string | null;
  country: string | null;
  language: string;
  /** The PostgreSQL text-search configuration of the article's language. */
  text_config: string;
  story_id: string | null;
  /** Orders versions of one article: the record's line in its dataset, or the fetch time of a feed item. */
  revision: number;
};

export type Publisher = {
  id: string;
  name: string;
  url: string | null;
  category: string | null;
  language: string | null;
  country: string | null;
};

const TRACKING_PARAMS = /^(utm_[a-z]+|fbclid|gclid|mc_cid|mc_eid|cmpid|ocid|ncid|ref|rss|track)$/i;

/**
 * The URL that identifies an article whatever link pointed to it: https, lower-case host without `www.`, no
 * fragment, no tracking parameters, no trailing slash. Null when the text is not an http(s) URL.
 */
export function canonicalUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim().replace(/\\\?/g, "?"));
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.protocol = "https:";
  url.hostname = url.hostname.toLowerCase().replace(/^www\./, "");
  url.hash = "";
  for (const key of [...url.searchParams.keys()]) if (TRACKING_PARAMS.test(key)) url.searchParams.delete(key);
  url.searchParams.sort();
  if (url.pathname.length > 1 && url.pathname.endsWith("/")) url.pathname = url.pathname.slice(0, -1);
  const text = url.toString();
  return url.pathname === "/" && !url.search ? text.slice(0, -1) : text;
}

/**
 * The link as the source published it, served unchanged (`http://www.livemint.com/...` stays so): only the escaped
 * `\?` of the UCI file, an artefact of its export, is read as the `?` it stands for. Null when it is not an http(s)
 * URL. The canonical form (canonicalUrl) is only the article's identity: its id and the key that merges duplicates.
 */
export function sourceUrl(raw: string): string | null {
  const text = raw.trim().replace(/\\\?/g, "?");
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? text : null;
  } catch {
    return null;
  }
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 20);
}

/** An article's id: from its canonical URL, or (no URL) from the dataset, the day and the headline. */
export function articleId(canonical: string | null, dataset: string, day: string, title: string): string {
  return `art_${digest(canonical ?? `${dataset}|${day}|${title.toLowerCase()}`)}`;
}

/** A publisher's id as NewsAPI spells them: lower-case words joined by hyphens ("Los Angeles Times" -> "los-angeles-times"). */
export function sourceId(name: string): string {
  return (
    name
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/&/g, " and ")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|(?<!-)-+$/g, "")
      .slice(0, 80) || "unknown"
  );
}

/** ISO 3166 country by the host's country-code TLD; null for generic TLDs (.com, .org, ...), which say nothing. */
export function countryOfHost(host: string): string | null {
  const tld = host.toLowerCase().split(".").at(-1) ?? "";
  if (tld === "uk") return "gb";
  return /^[a-z]{2}$/.test(tld) ? tld : null;
}

/** The UCI set's category letters. */
export const UCI_CATEGORIES: Record<string, string> = { b: "business", t: "technology", e: "entertainment", m: "health" };

/** A dataset's category as a lower-case label; "unknown" and empty labels are no category. */
export function normalizeCategory(raw: string | undefined | null): string | null {
  const label = (raw ?? "").trim().toLowerCase();
  return label === "" || label === "unknown" ? null : label;
}

/** YYYYMMDD -> the day at 00:00 UTC; null when it is not a real date. */
export function parseCompactDate(text: string): Date | null {
  const match = /^(\d{4})(\d{2})(\d{2})$/.exec(text.trim());
  if (!match) return null;
  return parseIsoDay(`${match[1]}-${match[2]}-${match[3]}`);
}

/** YYYY-MM-DD -> the day at 00:00 UTC; null when it is not a real date. */
function parseIsoDay(text: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return null;
  const date = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text ? null : date;
}

/** Collapses whitespace; null for an empty text. */
export function cleanText(text: string | undefined | null): string | null {
  const clean = (text ?? "").replace(/\s+/g, " ").trim();
  return clean === "" ? null : clean;
}

/** The host of a canonical URL (already without `www.`). */
export function domainOf(canonical: string | null): string | null {
  return canonical ? new URL(canonical).hostname : null;
}
