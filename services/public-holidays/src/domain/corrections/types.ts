import type { HolidayType } from "../types.js";

/**
 * One correction to date-holidays' data, as data: a holiday the engine lacks (`add`), a rule of the engine that
 * does not hold (`remove`), or a national holiday of the engine that holds in every subdivision although some
 * subdivisions' data switch it off (`nationwide`), for some years and in some subdivisions, with its legal source.
 */
export interface Correction {
  /** Unique and stable: "<country>-<what>", e.g. "SE-whit-monday-abolished". */
  id: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  action: "add" | "remove" | "nationwide";
  /**
   * In date-holidays' rule grammar (https://github.com/commenthol/date-holidays#holiday-rules):
   * "01-14", "2026-06-15" (one day), "easter -2", "2nd monday in June", "12-25 and if sunday then next monday".
   * For `remove` and `nationwide`, the engine's own rule string, exactly.
   */
  rule: string;
  /** Names by language ("en" required for `add`): English and the country's own language. */
  name?: Record<string, string>;
  /** For `add`; "public" unless given. */
  type?: HolidayType;
  /** For `add`: a day moved off a weekend is flagged as a substitute day, as the engine does. */
  substitute?: boolean;
  /** Inclusive validity; open ends mean "always". */
  years?: { from?: number; to?: number };
  /** Subdivision codes ("AU-SA") whose calendars alone it applies to; absent: the whole country. */
  subdivisions?: string[];
  /**
   * For lunar holidays: "observed" when the date is the one the authority published for that year,
   * "calculated" when it is the computed calendar date.
   */
  lunarDate?: "observed" | "calculated";
  /**
   * The legal source (law, decree, gazette, official page) and, where it could not be checked offline
   * when the entry was written, a plain statement saying so.
   */
  source: string;
  /** Why the engine is wrong, when not obvious from the source. */
  note?: string;
}

/** A country date-holidays does not cover at all, served from corrections alone. */
export interface AddedCountry {
  code: string;
  timezone: string;
  /** Languages of the names, as date-holidays spells them ("en"). */
  languages: string[];
}

export function appliesIn(correction: Correction, year: number, subdivision: string | undefined): boolean {
  const { from = -Infinity, to = Infinity } = correction.years ?? {};
  if (year < from || year > to) return false;
  if (!correction.subdivisions) return true;
  return subdivision !== undefined && correction.subdivisions.includes(subdivision);
}
