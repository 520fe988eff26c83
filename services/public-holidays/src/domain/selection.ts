import { addDays, daysBetween } from "./calendar.js";
import { HOLIDAY_TYPES, LOOK_AHEAD_DAYS, type Country, type Holiday, type HolidayType } from "./types.js";

export interface Selection {
  types: readonly HolidayType[];
  /** A subdivision ("DE-BY") or a local area ("DE-BY-A"); null for the whole country. */
  subdivision: SubdivisionMatch | null;
}

interface SubdivisionMatch {
  /** The canonical code asked for: a subdivision or a local area. */
  code: string;
  /** The subdivision the code is or lies in. */
  subdivision: string;
}

type TypesParse = { ok: true; types: HolidayType[] } | { ok: false; unknown: string[] };

/** "public,bank" -> ["public", "bank"] in canonical order; duplicates and surrounding spaces are ignored. */
export function parseTypes(list: string): TypesParse {
  const requested = list
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter((item) => item.length > 0);
  const unknown = requested.filter((item) => !(HOLIDAY_TYPES as readonly string[]).includes(item));
  if (unknown.length > 0) return { ok: false, unknown: [...new Set(unknown)] };
  return { ok: true, types: HOLIDAY_TYPES.filter((type) => requested.includes(type)) };
}

/** A subdivision or local area of the country, matched case-insensitively. */
export function findSubdivision(country: Country, code: string): SubdivisionMatch | undefined {
  const wanted = code.toUpperCase();
  for (const subdivision of country.subdivisions) {
    if (subdivision.code.toUpperCase() === wanted) return { code: subdivision.code, subdivision: subdivision.code };
    const region = subdivision.regions.find((candidate) => candidate.code.toUpperCase() === wanted);
    if (region) return { code: region.code, subdivision: subdivision.code };
  }
  return undefined;
}

function observedIn(holiday: Holiday, match: SubdivisionMatch): boolean {
  if (holiday.global) return !holiday.except_counties?.includes(match.subdivision);
  if (holiday.counties?.includes(match.subdivision)) return true;
  return holiday.regions?.includes(match.code) ?? false;
}

export function select(holidays: Holiday[], selection: Selection): Holiday[] {
  const { types, subdivision } = selection;
  return holidays.filter((holiday) => holiday.types.some((type) => types.includes(type)) && (subdivision === null || observedIn(holiday, subdivision)));
}

interface UpcomingHoliday extends Holiday {
  days_until: number;
}

/** Holidays starting from `today` through `today` + 365 days, both inclusive. */
export function upcoming(holidays: Holiday[], today: string): UpcomingHoliday[] {
  const until = lookAheadEnd(today);
  return holidays
    .filter((holiday) => holiday.date >= today && holiday.date <= until)
    .map((holiday) => ({ ...holiday, days_until: daysBetween(today, holiday.date) }));
}

export function lookAheadEnd(today: string): string {
  return addDays(today, LOOK_AHEAD_DAYS);
}

/**
 * Two consecutive years as one list. A holiday that begins on the evening before New Year's Day can be
 * listed by both years: it is kept once.
 */
export function mergeYears(first: Holiday[], second: Holiday[]): Holiday[] {
  const seen = new Set<string>();
  return [...first, ...second].filter((holiday) => {
    const key = `${holiday.start}|${holiday.name}|${holiday.types.join()}|${holiday.counties?.join() ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Holidays in force on a date: those starting on it and multi-day ones still running. */
export function onDate(holidays: Holiday[], date: string): Holiday[] {
  return holidays.filter((holiday) => holiday.date <= date && date <= holiday.end_date);
}

/**
 * The years whose lists can hold a holiday in force on the date. The longest multi-day holiday the engine
 * knows lasts eight days (Hanukkah), so early January also looks at the year before.
 */
export function yearsCovering(date: string): number[] {
  const year = Number(date.slice(0, 4));
  return date.slice(5) <= "01-10" ? [year - 1, year] : [year];
}
