import { errors } from "@apiplat/service-kit";
import { MAX_WINDOW_DAYS, addDays, fillSeries, isCalendarDate, resolveWindow } from "../domain/stats-window.js";
import { botHits, dimensionTotals, lifetimeTotals, type DimensionRow, type Dimension } from "../store/clicks.js";
import type { LinkRow } from "../store/links.js";
import type { Queryable } from "@apiplat/storage";

/** At most this many values per breakdown, the most frequent first. */
const MAX_BREAKDOWN_VALUES = 100;

interface StatsQuery {
  unique: boolean;
  from?: string;
  to?: string;
}

function dayParam(text: string | undefined, field: string): string | undefined {
  if (text === undefined) return undefined;
  if (!isCalendarDate(text)) throw errors.validation(field, "must be a date written YYYY-MM-DD (a UTC day)");
  return text;
}

/** Stats over whole UTC days, read from the daily aggregates (never from raw clicks). */
export async function linkStats(db: Queryable, link: LinkRow, query: StatsQuery, now: Date) {
  const window = resolveWindow(link.created_at, now, dayParam(query.from, "from"), dayParam(query.to, "to"));
  if (window.from > window.to) throw errors.validation("from", "must not be after to");
  if (addDays(window.from, MAX_WINDOW_DAYS - 1) < window.to) {
    throw errors.validation("to", `must be at most ${MAX_WINDOW_DAYS - 1} days after from (${MAX_WINDOW_DAYS} days in all)`);
  }
  const [rows, bots] = await Promise.all([dimensionTotals(db, link.id, window.from, window.to), botHits(db, link.id, window.from, window.to)]);
  const countOf = (row: DimensionRow) => (query.unique ? row.visitors : row.hits);
  const sum = (pick: (row: DimensionRow) => number) => rows.filter((row) => row.dimension === "day").reduce((total, row) => total + pick(row), 0);
  const breakdown = (dimension: Dimension) =>
    rows
      .filter((row) => row.dimension === dimension)
      .map((row) => ({ value: row.value, count: countOf(row) }))
      .filter((entry) => entry.count > 0)
      .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
      .slice(0, MAX_BREAKDOWN_VALUES);
  const perDay = new Map(rows.filter((row) => row.dimension === "day").map((row) => [row.value, countOf(row)]));
  return {
    unique: query.unique,
    from: window.from,
    to: window.to,
    total_hits: sum((row) => row.hits),
    unique_visitors: sum((row) => row.visitors),
    bot_hits: bots,
    referrers: breakdown("referrer"),
    countries: breakdown("country"),
    device_types: breakdown("device_type"),
    browsers: breakdown("browser"),
    operating_systems: breakdown("os"),
    time_series: fillSeries(window, perDay),
  };
}

export async function linkSummary(db: Queryable, link: LinkRow) {
  const totals = await lifetimeTotals(db, link.id);
  return {
    total_hits: totals.hits,
    unique_visitors: totals.visitors,
    bot_hits: totals.bot_hits,
    last_clicked_at: link.last_clicked_at?.toISOString() ?? null,
  };
}
