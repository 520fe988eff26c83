/** The three answers of the service (lookup, convert, list), computed from the loaded tz database. */
import {
  civilToSeconds,
  dayOfYear,
  formatDate,
  formatDateTime,
  formatOffset,
  formatTime,
  formatUtc,
  formatWithOffset,
  isoWeek,
  secondsToCivil,
  weekdayName,
} from "./civil.js";
import { resolveWall, type Disambiguation, type Resolution } from "./local-time.js";
import { normalizeZoneText, ZoneSuggester } from "./suggest.js";
import type { LocalTimeType } from "./tzif.js";
import type { ZoneDatabase, ZoneEntry } from "../zoneinfo/zone-database.js";
import type { Transition, ZoneRules } from "./zone-rules.js";

/** A name that is not in the tz database; `suggestions` are the closest real names. */
export class UnknownZoneError extends Error {
  constructor(
    readonly field: string,
    readonly input: string,
    readonly suggestions: string[],
  ) {
    super(`unknown time zone "${input}"`);
  }
}

/** A country code that iso3166.tab does not list. */
export class UnknownCountryError extends Error {
  constructor(readonly input: string) {
    super(`unknown country code "${input}"`);
  }
}

/** A wall-clock time that is skipped or repeated, when the caller asked for `reject`. */
export class AmbiguousWallTimeError extends Error {
  constructor(
    readonly resolution: Ambiguity,
    message: string,
  ) {
    super(message);
  }
}

interface NextTransition {
  at: string;
  unix_timestamp: number;
  utc_offset: string;
  offset_seconds: number;
  abbreviation: string;
  dst_active: boolean;
}

interface LookupResult {
  timezone: string;
  canonical_timezone: string;
  country_codes: string[];
  datetime: string;
  date: string;
  time: string;
  iso_8601: string;
  utc_datetime: string;
  unix_timestamp: number;
  weekday: string;
  day_of_year: number;
  week_number: number;
  utc_offset: string;
  offset_seconds: number;
  raw_offset: number;
  dst_offset: number;
  dst_active: boolean;
  abbreviation: string;
  dst_from: string | null;
  dst_until: string | null;
  next_transition: NextTransition | null;
  tz_version: string;
}

interface ZoneReading {
  timezone: string;
  datetime: string;
  iso_8601: string;
  utc_offset: string;
  offset_seconds: number;
  abbreviation: string;
  dst_active: boolean;
}

interface ConvertResult {
  input: { time: string; timezone: string };
  from: ZoneReading;
  to: ZoneReading;
  utc_datetime: string;
  unix_timestamp: number;
  offset_difference_seconds: number;
  resolution: "unique" | "gap" | "overlap";
  disambiguation: Disambiguation;
  /** How far the reading in `from` moved from the input: non-zero only for a time in a gap. */
  shifted_seconds: number;
  /** For a gap or an overlap: the two instants the input could mean, earlier first. */
  candidates: { utc_datetime: string; iso_8601: string; abbreviation: string }[];
  note: string | null;
  tz_version: string;
}

interface ListedZone {
  name: string;
  kind: "canonical" | "alias";
  target: string | null;
  country_codes: string[];
  comment: string | null;
  utc_offset: string;
  abbreviation: string;
  dst_active: boolean;
}

interface ListFilter {
  query?: string;
  kind: ZoneKindFilter;
  country?: string;
}

interface ListResult {
  tz_version: string;
  total: number;
  count: number;
  zones: ListedZone[];
}

type ZoneKindFilter = "all" | "canonical" | "alias";

export interface OffsetState {
  utc_offset: string;
  offset_seconds: number;
  abbreviation: string;
  dst_active: boolean;
}

interface TransitionEntry {
  at: string;
  unix_timestamp: number;
  /** The wall-clock time the change happens at, read in the old offset: clocks move from here ("02:00")... */
  local_before: string;
  /** ...to here ("03:00"), the same instant read in the new offset. */
  local_after: string;
  /** How far the clocks move: positive skips local time (a gap), negative repeats it (an overlap). */
  shift_seconds: number;
  before: OffsetState;
  after: OffsetState;
}

interface TransitionsResult {
  timezone: string;
  canonical_timezone: string;
  year: number;
  count: number;
  transitions: TransitionEntry[];
  tz_version: string;
}

/** A DST stretch that ends after this many changes of type without leaving DST is treated as open-ended. */
const MAX_DST_WALK = 32;

export class TimeZones {
  private readonly suggester: ZoneSuggester;

  constructor(private readonly db: ZoneDatabase) {
    this.suggester = new ZoneSuggester(db.entries.map((e) => e.name));
  }

  get version(): string {
    return this.db.version;
  }

  get zoneCount(): number {
    return this.db.entries.length;
  }

  zone(field: string, name: string): ZoneEntry {
    // An unencoded "+" in a query string arrives as a space: "?tz=Etc/GMT+5" reads "Etc/GMT 5".
    const entry = this.db.find(name.trim()) ?? (name.includes(" ") ? this.db.find(name.trim().replace(/ /g, "+")) : undefined);
    if (!entry) throw new UnknownZoneError(field, name, this.suggester.closeMatches(name));
    return entry;
  }

  lookup(name: string, instant: number): LookupResult {
    const entry = this.zone("tz", name);
    const rules = entry.rules;
    const type = rules.typeAt(instant);
    const local = secondsToCivil(instant + type.offsetSeconds);
    const rawOffset = rules.standardOffsetAt(instant);
    const dst = dstBounds(rules, instant, type);
    const next = rules.transitionAfter(instant);
    return {
      timezone: entry.name,
      canonical_timezone: entry.target ?? entry.name,
      country_codes: entry.countryCodes,
      datetime: formatDateTime(local),
      date: formatDate(local),
      time: formatTime(local),
      iso_8601: formatWithOffset(instant, type.offsetSeconds),
      utc_datetime: formatUtc(instant),
      unix_timestamp: instant,
      weekday: weekdayName(local),
      day_of_year: dayOfYear(local),
      week_number: isoWeek(local),
      utc_offset: formatOffset(type.offsetSeconds),
      offset_seconds: type.offsetSeconds,
      raw_offset: rawOffset,
      dst_offset: type.offsetSeconds - rawOffset,
      dst_active: type.isDst,
      abbreviation: type.abbreviation,
      dst_from: dst.from === null ? null : formatUtc(dst.from),
      dst_until: dst.until === null ? null : formatUtc(dst.until),
      next_transition: next ? describeTransition(next) : null,
      tz_version: this.db.version,
    };
  }

  convert(wall: number, fromName: string, toName: string, disambiguation: Disambiguation): ConvertResult {
    const from = this.zone("from", fromName);
    const to = this.zone("to", toName);
    const resolution = resolveWall(from.rules, wall, disambiguation);
    if (resolution.kind !== "unique" && disambiguation === "reject") {
      throw new AmbiguousWallTimeError(resolution, explain(resolution, from.name, wall, disambiguation));
    }
    const instant = resolution.instant;
    const fromReading = reading(from, instant);
    const toReading = reading(to, instant);
    const candidates =
      resolution.kind === "unique"
        ? []
        : [resolution.earlier, resolution.later].map((t) => {
            const type = from.rules.typeAt(t);
            return { utc_datetime: formatUtc(t), iso_8601: formatWithOffset(t, type.offsetSeconds), abbreviation: type.abbreviation };
          });
    return {
      input: { time: formatDateTime(secondsToCivil(wall)), timezone: from.name },
      from: fromReading,
      to: toReading,
      utc_datetime: formatUtc(instant),
      unix_timestamp: instant,
      offset_difference_seconds: toReading.offset_seconds - fromReading.offset_seconds,
      resolution: resolution.kind,
      disambiguation,
      shifted_seconds: instant + fromReading.offset_seconds - wall,
      candidates,
      note: resolution.kind === "unique" ? null : explain(resolution, from.name, wall, disambiguation),
      tz_version: this.db.version,
    };
  }

  /** Every change of offset, DST flag or abbreviation during a UTC calendar year. */
  transitions(name: string, year: number): TransitionsResult {
    const entry = this.zone("tz", name);
    const start = civilToSeconds({ year, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
    const end = civilToSeconds({ year: year + 1, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
    const transitions = entry.rules.transitionsBetween(start, end).map((t) => {
      const before = entry.rules.typeAt(t.at - 1);
      return {
        at: formatUtc(t.at),
        unix_timestamp: t.at,
        local_before: formatDateTime(secondsToCivil(t.at + before.offsetSeconds)),
        local_after: formatDateTime(secondsToCivil(t.at + t.type.offsetSeconds)),
        shift_seconds: t.type.offsetSeconds - before.offsetSeconds,
        before: offsetState(before),
        after: offsetState(t.type),
      };
    });
    return {
      timezone: entry.name,
      canonical_timezone: entry.target ?? entry.name,
      year,
      count: transitions.length,
      transitions,
      tz_version: this.db.version,
    };
  }

  list(filter: ListFilter, now: number): ListResult {
    const wanted = filter.query === undefined ? "" : normalizeZoneText(filter.query);
    const country = filter.country?.toUpperCase();
    if (country !== undefined && !this.db.countryNames.has(country)) throw new UnknownCountryError(filter.country!);
    const zones: ListedZone[] = [];
    for (const entry of this.db.entries) {
      if (filter.kind !== "all" && entry.kind !== filter.kind) continue;
      if (country !== undefined && !entry.countryCodes.includes(country)) continue;
      if (wanted && !this.matches(entry, wanted)) continue;
      const type = entry.rules.typeAt(now);
      zones.push({
        name: entry.name,
        kind: entry.kind,
        target: entry.target,
        country_codes: entry.countryCodes,
        comment: entry.comment,
        utc_offset: formatOffset(type.offsetSeconds),
        abbreviation: type.abbreviation,
        dst_active: type.isDst,
      });
    }
    return { tz_version: this.db.version, total: this.db.entries.length, count: zones.length, zones };
  }

  /** The name, an alias's target, or the name of a country the zone serves contains the wanted text. */
  private matches(entry: ZoneEntry, wanted: string): boolean {
    if (normalizeZoneText(entry.name).includes(wanted)) return true;
    if (entry.target !== null && normalizeZoneText(entry.target).includes(wanted)) return true;
    return entry.countryCodes.some((code) => normalizeZoneText(this.db.countryNames.get(code) ?? "").includes(wanted));
  }
}

function offsetState(type: LocalTimeType): OffsetState {
  return {
    utc_offset: formatOffset(type.offsetSeconds),
    offset_seconds: type.offsetSeconds,
    abbreviation: type.abbreviation,
    dst_active: type.isDst,
  };
}

function reading(entry: ZoneEntry, instant: number): ZoneReading {
  const type = entry.rules.typeAt(instant);
  return {
    timezone: entry.name,
    datetime: formatDateTime(secondsToCivil(instant + type.offsetSeconds)),
    iso_8601: formatWithOffset(instant, type.offsetSeconds),
    utc_offset: formatOffset(type.offsetSeconds),
    offset_seconds: type.offsetSeconds,
    abbreviation: type.abbreviation,
    dst_active: type.isDst,
  };
}

function describeTransition(t: Transition): NextTransition {
  return {
    at: formatUtc(t.at),
    unix_timestamp: t.at,
    utc_offset: formatOffset(t.type.offsetSeconds),
    offset_seconds: t.type.offsetSeconds,
    abbreviation: t.type.abbreviation,
    dst_active: t.type.isDst,
  };
}

/**
 * During DST: the UTC bounds of the current DST stretch. Outside DST: the bounds of the next one.
 * A bound is null when the zone has no such transition (no DST ahead, or DST with no end in the data).
 */
function dstBounds(rules: ZoneRules, instant: number, type: LocalTimeType): { from: number | null; until: number | null } {
  if (type.isDst) return { from: dstStart(rules, instant), until: dstEnd(rules, instant) };
  let cursor: Transition | null = rules.transitionAfter(instant);
  for (let step = 0; cursor && step < MAX_DST_WALK; step++) {
    if (cursor.type.isDst) return { from: cursor.at, until: dstEnd(rules, cursor.at) };
    cursor = rules.transitionAfter(cursor.at);
  }
  return { from: null, until: null };
}

function dstStart(rules: ZoneRules, instant: number): number | null {
  let start = rules.transitionAtOrBefore(instant);
  for (let step = 0; start && step < MAX_DST_WALK; step++) {
    const previous = rules.typeAt(start.at - 1);
    if (!previous.isDst) return start.at;
    start = rules.transitionAtOrBefore(start.at - 1);
  }
  return null;
}

function dstEnd(rules: ZoneRules, instant: number): number | null {
  let next = rules.transitionAfter(instant);
  for (let step = 0; next && step < MAX_DST_WALK; step++) {
    if (!next.type.isDst) return next.at;
    next = rules.transitionAfter(next.at);
  }
  return null;
}

type Ambiguity = Exclude<Resolution, { kind: "unique" }>;

/** A sentence saying what the DST change did to the wall time and which instant was taken. */
function explain(resolution: Ambiguity, zone: string, wall: number, disambiguation: Disambiguation): string {
  const before = resolution.before;
  const after = resolution.transition.type;
  const shown = formatDateTime(secondsToCivil(wall));
  const jump = Math.abs(after.offsetSeconds - before.offsetSeconds);
  const describe = (type: LocalTimeType) => `${formatOffset(type.offsetSeconds)} ${type.abbreviation}`;
  const change = `clocks in ${zone} changed from ${describe(before)} to ${describe(after)} at ${formatUtc(resolution.transition.at)}`;
  if (resolution.kind === "gap") {
    const what = `${shown} does not exist: ${change}, skipping ${jump / 60} minutes`;
    if (disambiguation === "reject") return `${what}.`;
    const side = disambiguation === "earlier" ? "moved back" : "moved forward";
    return `${what}; ${side} by the gap's length (disambiguation=${disambiguation}).`;
  }
  const what = `${shown} happens twice: ${change}, repeating ${jump / 60} minutes`;
  if (disambiguation === "reject") return `${what}.`;
  const side = disambiguation === "later" ? "the later one" : "the earlier one";
  return `${what}; took ${side} (disambiguation=${disambiguation}).`;
}
