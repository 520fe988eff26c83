/** Parsing the ISO 8601 date-times a caller sends: instants (with Z or an offset) and wall-clock readings. */
import { civilToSeconds, daysInMonth, type CivilDateTime } from "./civil.js";

/** Supported calendar years, inclusive. */
export const MIN_YEAR = 1800;
export const MAX_YEAR = 2200;

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

type ParseResult<T> = { ok: true; value: T } | { ok: false; issue: string };

interface ParsedDateTime {
  civil: CivilDateTime;
  hasTime: boolean;
  /** Offset east of UTC in seconds, when the text carries Z or an offset. */
  offsetSeconds?: number;
}

function parseOffset(text: string): number | undefined {
  if (text === "Z" || text === "z") return 0;
  const digits = text.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  const value = hours * 3600 + minutes * 60;
  return text.startsWith("-") ? -value : value;
}

function parseDateTime(text: string): ParseResult<ParsedDateTime> {
  const m = DATE_TIME.exec(text.trim());
  if (!m) return { ok: false, issue: "must be an ISO 8601 date-time such as 2026-03-29T02:30:00" };
  const civil: CivilDateTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
  };
  if (civil.month < 1 || civil.month > 12) return { ok: false, issue: "has a month outside 01-12" };
  if (civil.day < 1 || civil.day > daysInMonth(civil.year, civil.month)) {
    return { ok: false, issue: `has a day outside 01-${daysInMonth(civil.year, civil.month)} for that month` };
  }
  if (civil.hour > 23 || civil.minute > 59 || civil.second > 59) {
    return { ok: false, issue: "has a time outside 00:00:00-23:59:59" };
  }
  let offsetSeconds: number | undefined;
  if (m[8]) {
    if (m[4] === undefined) return { ok: false, issue: "has an offset but no time of day" };
    offsetSeconds = parseOffset(m[8]);
    if (offsetSeconds === undefined) return { ok: false, issue: "has an offset outside -23:59..+23:59" };
  }
  return { ok: true, value: { civil, hasTime: m[4] !== undefined, offsetSeconds } };
}

function yearInRange(year: number): boolean {
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

const YEAR_ISSUE = `must be between ${MIN_YEAR}-01-01T00:00:00Z and ${MAX_YEAR}-12-31T23:59:59Z`;

/** An exact instant: a date-time with Z or an offset. Fractions of a second are dropped. */
export function parseInstant(text: string): ParseResult<number> {
  const parsed = parseDateTime(text);
  if (!parsed.ok) return parsed;
  const { civil, offsetSeconds } = parsed.value;
  if (offsetSeconds === undefined) {
    return { ok: false, issue: "must carry Z or a UTC offset (e.g. 2026-07-01T12:00:00Z or ...+02:00)" };
  }
  const instant = civilToSeconds(civil) - offsetSeconds;
  const min = civilToSeconds({ year: MIN_YEAR, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
  const max = civilToSeconds({ year: MAX_YEAR, month: 12, day: 31, hour: 23, minute: 59, second: 59 });
  if (instant < min || instant > max) return { ok: false, issue: YEAR_ISSUE };
  return { ok: true, value: instant };
}

/** A wall-clock reading without offset ("2026-03-29T02:30", or a date alone for midnight), as seconds read as UTC. */
export function parseWallTime(text: string): ParseResult<number> {
  const parsed = parseDateTime(text);
  if (!parsed.ok) return parsed;
  if (parsed.value.offsetSeconds !== undefined) {
    return { ok: false, issue: "must be a local date-time without Z or offset; the zone is given by from" };
  }
  if (!yearInRange(parsed.value.civil.year)) {
    return { ok: false, issue: `must have a year between ${MIN_YEAR} and ${MAX_YEAR}` };
  }
  return { ok: true, value: civilToSeconds(parsed.value.civil) };
}
