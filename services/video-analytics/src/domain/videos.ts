/** Pure rules for the trending datasets: dates, channel ids, tags, and the analytics of a video's snapshots. */
import { createHash } from "node:crypto";

/** `YY.DD.MM` (17.14.11 = 2017-11-14) -> `2017-11-14`; null when it is not a real day. */
export function parseTrendingDate(text: string): string | null {
  const match = /^(\d{2})\.(\d{2})\.(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const iso = `20${match[1]}-${match[3]}-${match[2]}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/**
 * The data has channel titles, not YouTube channel ids, so a channel's id is derived from its title: `ch_` and the
 * first 16 hex digits of SHA-256 of the title trimmed and lower-cased. The same title always gives the same id;
 * two channels with the same title (rare) are one channel here.
 */
export function channelId(title: string): string {
  return `ch_${createHash("sha256").update(title.trim().toLowerCase()).digest("hex").slice(0, 16)}`;
}

/** `"tag one"|"tag two"` -> ["tag one", "tag two"]; "[none]" is no tags. */
export function parseTags(text: string | undefined): string[] {
  if (!text || text.trim() === "[none]") return [];
  return text
    .split("|")
    .map((t) => t.replace(/^"+|(?<!")"+$/g, "").trim())
    .filter((t) => t.length > 0);
}

/** The description's literal `\n` sequences as line breaks. */
export function cleanDescription(text: string | undefined): string | null {
  const clean = (text ?? "").replace(/\\n/g, "\n").trim();
  return clean === "" ? null : clean;
}

export function parseCount(text: string | undefined): number | null {
  if (text === undefined || text.trim() === "") return null;
  const value = Number(text);
  return Number.isInteger(value) && value >= 0 ? value : null;
}

export function parseFlag(text: string | undefined): boolean | null {
  if (text === "True") return true;
  if (text === "False") return false;
  return null;
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export type Snapshot = {
  country: string;
  trending_date: string;
  views: number;
  likes: number | null;
  dislikes: number | null;
  comments: number | null;
  list_position: number | null;
};

interface DailyGain {
  country: string;
  from: string;
  to: string;
  days: number;
  views_gained: number;
  views_per_day: number;
  likes_gained: number | null;
  comments_gained: number | null;
}

const DAY_MS = 86_400_000;
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / DAY_MS);

/** Gains between consecutive snapshots of each country, in date order. */
export function dailyGains(snapshots: readonly Snapshot[]): DailyGain[] {
  const byCountry = new Map<string, Snapshot[]>();
  for (const s of snapshots) byCountry.set(s.country, [...(byCountry.get(s.country) ?? []), s]);
  const gains: DailyGain[] = [];
  for (const [country, list] of [...byCountry].sort(([a], [b]) => a.localeCompare(b))) {
    const ordered = [...list].sort((a, b) => a.trending_date.localeCompare(b.trending_date));
    for (let i = 1; i < ordered.length; i++) {
      const [prev, cur] = [ordered[i - 1], ordered[i]];
      const days = daysBetween(prev.trending_date, cur.trending_date);
      gains.push({
        country,
        from: prev.trending_date,
        to: cur.trending_date,
        days,
        views_gained: cur.views - prev.views,
        views_per_day: round((cur.views - prev.views) / days, 2),
        likes_gained: cur.likes !== null && prev.likes !== null ? cur.likes - prev.likes : null,
        comments_gained: cur.comments !== null && prev.comments !== null ? cur.comments - prev.comments : null,
      });
    }
  }
  return gains;
}

/**
 * Compound daily growth of views between the first and the last snapshot of the country with the longest series:
 * (last / first)^(1 / days) - 1. Null with fewer than two days.
 */
export function dailyGrowthRate(snapshots: readonly Snapshot[]): number | null {
  const byCountry = new Map<string, Snapshot[]>();
  for (const s of snapshots) byCountry.set(s.country, [...(byCountry.get(s.country) ?? []), s]);
  const longest = [...byCountry.values()].sort((a, b) => b.length - a.length)[0] ?? [];
  const ordered = [...longest].sort((a, b) => a.trending_date.localeCompare(b.trending_date));
  if (ordered.length < 2) return null;
  const [first, last] = [ordered[0], ordered.at(-1)!];
  const days = daysBetween(first.trending_date, last.trending_date);
  if (days <= 0 || first.views <= 0) return null;
  return round((last.views / first.views) ** (1 / days) - 1, 6);
}
