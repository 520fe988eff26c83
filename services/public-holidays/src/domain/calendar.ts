// Calendar arithmetic on plain ISO dates ("YYYY-MM-DD") and wall-clock times in IANA zones.

const DAY_MS = 86_400_000;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function wallClock(instant: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

function pad(value: number, width = 2): string {
  return String(Math.abs(value)).padStart(width, "0");
}

function isoDateOf(clock: WallClock): string {
  return `${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}`;
}

/** The calendar date an instant falls on in a time zone. */
export function localDate(instant: Date, timeZone: string): string {
  return isoDateOf(wallClock(instant, timeZone));
}

/** The instant as local time with its UTC offset, e.g. "2026-12-24T14:00:00+01:00". */
export function localDateTime(instant: Date, timeZone: string): string {
  const clock = wallClock(instant, timeZone);
  const wallAsUtc = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute, clock.second);
  const offsetMinutes = Math.round((wallAsUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const offset = `${sign}${pad(Math.trunc(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${isoDateOf(clock)}T${pad(clock.hour)}:${pad(clock.minute)}:${pad(clock.second)}${offset}`;
}

function dateToUtcMs(isoDate: string): number {
  const [year, month, day] = isoDate.split("-").map(Number);
  return Date.UTC(year, month - 1, day);
}

export function addDays(isoDate: string, days: number): string {
  return new Date(dateToUtcMs(isoDate) + days * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(fromIsoDate: string, toIsoDate: string): number {
  return Math.round((dateToUtcMs(toIsoDate) - dateToUtcMs(fromIsoDate)) / DAY_MS);
}

/** Seconds from `instant` until the next local midnight in the time zone (at least 1). */
export function secondsUntilLocalMidnight(instant: Date, timeZone: string): number {
  const clock = wallClock(instant, timeZone);
  const elapsed = clock.hour * 3600 + clock.minute * 60 + clock.second;
  return Math.max(1, 86_400 - elapsed);
}
