import type { Correction } from "./types.js";
import { correctionsOf, type Names } from "./build.js";

/**
 * The holidays of a country date-holidays does not cover, as corrections that add them: one factory per
 * country, so that every entry carries the country's id prefix and its source unless it has one of its own.
 */
export function calendarOf(country: string, source: string) {
  return correctionsOf(country, source).add;
}

/** One entry per year from a table of first days ("09-27" in 2000…), each `days` long. */
export function datedByYear(
  holiday: ReturnType<typeof calendarOf>,
  id: string,
  firstDays: Record<number, string>,
  days: number,
  name: Names,
  extra: Partial<Correction> = {},
): Correction[] {
  return Object.entries(firstDays).map(([year, monthDay]) => holiday(`${id}-${year}`, `${year}-${monthDay}${days > 1 ? ` P${days}D` : ""}`, name, extra));
}
