/**
 * POSIX TZ strings as found in TZif footers ("CET-1CEST,M3.5.0,M10.5.0/3", "<+03>-3"), with the RFC 8536
 * extensions: transition hours from -167 to 167, and DST all year round.
 */
import { daysFromCivil, daysInMonth, isLeapYear, SECONDS_PER_DAY } from "./civil.js";
import type { LocalTimeType } from "./tzif.js";

type DateRule =
  | { kind: "julian-no-leap"; day: number } // Jn: 1..365, February 29 is never counted
  | { kind: "julian-zero"; day: number } // n: 0..365, February 29 is counted in leap years
  | { kind: "month-week-day"; month: number; week: number; weekday: number }; // Mm.w.d

interface TransitionRule {
  date: DateRule;
  /** Local wall time of the transition, seconds after midnight (may be negative or past 24h). */
  timeSeconds: number;
}

export interface PosixTz {
  standard: LocalTimeType;
  daylight?: { type: LocalTimeType; start: TransitionRule; end: TransitionRule; allYear: boolean };
}

interface RuleTransition {
  at: number;
  type: LocalTimeType;
}

export class PosixTzError extends Error {}

class Cursor {
  index = 0;
  constructor(readonly text: string) {}
  peek(): string {
    return this.text[this.index] ?? "";
  }
  done(): boolean {
    return this.index >= this.text.length;
  }
  fail(what: string): never {
    throw new PosixTzError(`bad TZ string "${this.text}": ${what} at position ${this.index}`);
  }
}

function readName(c: Cursor): string {
  if (c.peek() === "<") {
    const end = c.text.indexOf(">", c.index);
    if (end === -1) c.fail("unterminated <name>");
    const name = c.text.slice(c.index + 1, end);
    c.index = end + 1;
    return name;
  }
  const match = /^[A-Za-z]+/.exec(c.text.slice(c.index));
  if (!match || match[0].length < 3) c.fail("expected a zone abbreviation");
  c.index += match[0].length;
  return match[0];
}

/** [+-]hh[:mm[:ss]] in seconds; `maxHours` is 24 for offsets and 167 for transition times. */
function readHms(c: Cursor, maxHours: number): number {
  const match = /^([+-]?)(\d{1,3})(?::(\d{1,2}))?(?::(\d{1,2}))?/.exec(c.text.slice(c.index));
  if (!match) c.fail("expected [+-]hh[:mm[:ss]]");
  const hours = Number(match[2]);
  const minutes = Number(match[3] ?? 0);
  const seconds = Number(match[4] ?? 0);
  if (hours > maxHours || minutes > 59 || seconds > 59) c.fail("time out of range");
  c.index += match[0].length;
  const value = hours * 3600 + minutes * 60 + seconds;
  return match[1] === "-" ? -value : value;
}

function readDateRule(c: Cursor): DateRule {
  const rest = c.text.slice(c.index);
  let match = /^M(\d{1,2})\.(\d)\.(\d)/.exec(rest);
  if (match) {
    const [month, week, weekday] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (month < 1 || month > 12 || week < 1 || week > 5 || weekday > 6) c.fail("bad Mm.w.d rule");
    c.index += match[0].length;
    return { kind: "month-week-day", month, week, weekday };
  }
  match = /^J(\d{1,3})/.exec(rest);
  if (match) {
    const day = Number(match[1]);
    if (day < 1 || day > 365) c.fail("bad Jn rule");
    c.index += match[0].length;
    return { kind: "julian-no-leap", day };
  }
  match = /^(\d{1,3})/.exec(rest);
  if (match) {
    const day = Number(match[1]);
    if (day > 365) c.fail("bad n rule");
    c.index += match[0].length;
    return { kind: "julian-zero", day };
  }
  return c.fail("expected a date rule");
}

function readTransitionRule(c: Cursor): TransitionRule {
  const date = readDateRule(c);
  let timeSeconds = 2 * 3600;
  if (c.peek() === "/") {
    c.index++;
    timeSeconds = readHms(c, 167);
  }
  return { date, timeSeconds };
}

/** POSIX leaves the rules of "EST5EDT" without dates to the implementation; this is the US rule, as glibc does. */
const DEFAULT_RULES = "M3.2.0,M11.1.0";

export function parsePosixTz(text: string): PosixTz {
  const c = new Cursor(text);
  const standardName = readName(c);
  const standard: LocalTimeType = { abbreviation: standardName, offsetSeconds: -readHms(c, 24), isDst: false };
  if (c.done()) return { standard };
  const daylightName = readName(c);
  let daylightOffset = standard.offsetSeconds + 3600;
  if (c.peek() !== "," && !c.done()) daylightOffset = -readHms(c, 24);
  const rules = c.done() ? new Cursor(DEFAULT_RULES) : c;
  if (rules === c) {
    if (c.peek() !== ",") c.fail("expected ','");
    c.index++;
  }
  const start = readTransitionRule(rules);
  if (rules.peek() !== ",") rules.fail("expected ','");
  rules.index++;
  const end = readTransitionRule(rules);
  if (!c.done() || !rules.done()) c.fail("unexpected trailing text");
  const daylight: LocalTimeType = { abbreviation: daylightName, offsetSeconds: daylightOffset, isDst: true };
  const allYear = isAllYearDaylight(start, end, daylightOffset - standard.offsetSeconds);
  return { standard, daylight: { type: daylight, start, end, allYear } };
}

/** RFC 8536 3.3.1: DST starting January 1 at 00:00 and ending December 31 at 24:00 plus the DST amount is all year. */
function isAllYearDaylight(start: TransitionRule, end: TransitionRule, save: number): boolean {
  const startsNewYear = (start.date.kind === "julian-no-leap" && start.date.day === 1) || (start.date.kind === "julian-zero" && start.date.day === 0);
  return startsNewYear && start.timeSeconds === 0 && end.date.kind === "julian-no-leap" && end.date.day === 365 && end.timeSeconds === 24 * 3600 + save;
}

/** Days since the epoch of the day a rule names in `year`. */
function ruleDay(rule: DateRule, year: number): number {
  const jan1 = daysFromCivil(year, 1, 1);
  switch (rule.kind) {
    case "julian-no-leap":
      return jan1 + rule.day - 1 + (isLeapYear(year) && rule.day >= 60 ? 1 : 0);
    case "julian-zero":
      return jan1 + rule.day;
    case "month-week-day": {
      const first = daysFromCivil(year, rule.month, 1);
      const firstWeekday = (((first + 4) % 7) + 7) % 7;
      let day = first + ((rule.weekday - firstWeekday + 7) % 7) + (rule.week - 1) * 7;
      const last = first + daysInMonth(year, rule.month) - 1;
      while (day > last) day -= 7;
      return day;
    }
  }
}

/** The two transitions of `year` (DST start, DST end) in UTC seconds, or none when the zone has no DST. */
export function transitionsOfYear(tz: PosixTz, year: number): RuleTransition[] {
  const dst = tz.daylight;
  if (!dst || dst.allYear) return [];
  const start = ruleDay(dst.start.date, year) * SECONDS_PER_DAY + dst.start.timeSeconds - tz.standard.offsetSeconds;
  const end = ruleDay(dst.end.date, year) * SECONDS_PER_DAY + dst.end.timeSeconds - dst.type.offsetSeconds;
  return [
    { at: start, type: dst.type },
    { at: end, type: tz.standard },
  ].sort((a, b) => a.at - b.at);
}

/** The type in force all the time when the rule has no transitions. */
export function constantType(tz: PosixTz): LocalTimeType | undefined {
  if (!tz.daylight) return tz.standard;
  return tz.daylight.allYear ? tz.daylight.type : undefined;
}
