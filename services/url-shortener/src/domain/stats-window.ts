import { DAY_MS, utcDay } from "./visitor.js";

/** The longest window one stats request covers, in days (both ends included). */
export const MAX_WINDOW_DAYS = 366;

/** A window of whole UTC days, both ends included, as YYYY-MM-DD. */
interface DayWindow {
  from: string;
  to: string;
}

export function addDays(day: string, days: number): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS));
}

/** Defaults: to = today (UTC); from = the link's creation day, or the earliest day that keeps the window at 366 days. */
export function resolveWindow(createdAt: Date, now: Date, from?: string, to?: string): DayWindow {
  const end = to ?? utcDay(now);
  if (from !== undefined) return { from, to: end };
  const earliest = addDays(end, -(MAX_WINDOW_DAYS - 1));
  const created = utcDay(createdAt);
  return { from: created > earliest ? (created > end ? end : created) : earliest, to: end };
}

/** Every day of the window, in order (empty when from is after to). */
export function daysOf(window: DayWindow): string[] {
  const days: string[] = [];
  for (let day = window.from; day <= window.to && days.length <= MAX_WINDOW_DAYS; day = addDays(day, 1)) days.push(day);
  return days;
}

/** A zero-filled daily series from sparse per-day counts. */
export function fillSeries(window: DayWindow, counts: ReadonlyMap<string, number>): Array<{ date: string; count: number }> {
  return daysOf(window).map((date) => ({ date, count: counts.get(date) ?? 0 }));
}

/** A real calendar date written YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && utcDay(new Date(`${text}T00:00:00Z`)) === text;
}
