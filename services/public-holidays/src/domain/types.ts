export const HOLIDAY_TYPES = ["public", "bank", "optional", "school", "observance"] as const;
export type HolidayType = (typeof HOLIDAY_TYPES)[number];

export const DEFAULT_TYPES: readonly HolidayType[] = ["public"];

export const MIN_YEAR = 1975;
export const MAX_YEAR = 2100;
export const LOOK_AHEAD_DAYS = 365;

export interface Holiday {
  /** First day, local date in the country's main time zone. */
  date: string;
  /** Last day (inclusive); equals `date` for one-day holidays. */
  end_date: string;
  /** Local start with UTC offset; not always midnight (e.g. Christmas Eve from 14:00, days that begin at sunset). */
  start: string;
  /** Local end (exclusive) with UTC offset. */
  end: string;
  name: string;
  local_name: string;
  country_code: string;
  global: boolean;
  /** Subdivision codes (country-state) where the holiday is observed state-wide; null when national. */
  counties: string[] | null;
  /** Codes (country-state-area) of cities or districts where it is observed only locally; null when none. */
  regions: string[] | null;
  /**
   * For a national holiday: subdivisions whose own calendar does without it (Easter Monday in Scotland,
   * Columbus Day for California's state government); null when every subdivision keeps it.
   */
  except_counties: string[] | null;
  types: HolidayType[];
  substitute: boolean;
  /**
   * Lunar and lunisolar holidays (Islamic, Hebrew, Chinese…): "observed" when the date is the one the
   * authority published for that year, "calculated" when it is the computed calendar date; null otherwise.
   */
  lunar_date: "observed" | "calculated" | null;
  /** The legal source of a corrected or added holiday; null for the engine's own data (date-holidays). */
  source: string | null;
}

export interface Region {
  code: string;
  name: string;
}

export interface Subdivision {
  code: string;
  name: string;
  regions: Region[];
}

export interface Country {
  code: string;
  name: string;
  timezone: string;
  /** Languages of the country's names, main one first, as BCP 47 tags ("ja", "de-AT"). */
  languages: string[];
  /** The same languages as the engine spells them ("jp", "de-at"): what it is asked in. */
  engineLanguages: string[];
  subdivisions: Subdivision[];
  /** Not in date-holidays: served from the corrections alone (Papua New Guinea). */
  addedByCorrections?: boolean;
}
