/** Proleptic Gregorian calendar arithmetic on whole seconds, independent of the host's time zone data. */

export interface CivilDateTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export const SECONDS_PER_DAY = 86_400;

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
type WeekdayName = (typeof WEEKDAYS)[number];

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const monthFromMarch = month > 2 ? month - 3 : month + 9;
  const dayOfYear = Math.floor((153 * monthFromMarch + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Seconds since the epoch of a civil date-time read as if it were UTC. */
export function civilToSeconds(c: CivilDateTime): number {
  return daysFromCivil(c.year, c.month, c.day) * SECONDS_PER_DAY + c.hour * 3600 + c.minute * 60 + c.second;
}

export function secondsToCivil(seconds: number): CivilDateTime {
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const secondOfDay = seconds - days * SECONDS_PER_DAY;
  const date = civilFromDays(days);
  // Built field by field: spreading `date` into a new literal is several times slower on V8.
  return {
    year: date.year,
    month: date.month,
    day: date.day,
    hour: Math.floor(secondOfDay / 3600),
    minute: Math.floor((secondOfDay % 3600) / 60),
    second: secondOfDay % 60,
  };
}

/** 0 = Sunday ... 6 = Saturday. */
function weekdayIndex(year: number, month: number, day: number): number {
  const days = daysFromCivil(year, month, day);
  return (((days + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
}

export function weekdayName(c: CivilDateTime): WeekdayName {
  return WEEKDAYS[weekdayIndex(c.year, c.month, c.day)];
}

export function dayOfYear(c: CivilDateTime): number {
  return daysFromCivil(c.year, c.month, c.day) - daysFromCivil(c.year, 1, 1) + 1;
}

/** ISO 8601 week number (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeek(c: CivilDateTime): number {
  const days = daysFromCivil(c.year, c.month, c.day);
  const isoWeekday = ((weekdayIndex(c.year, c.month, c.day) + 6) % 7) + 1; // Monday = 1
  const thursday = days + 4 - isoWeekday;
  const thursdayYear = civilFromDays(thursday).year;
  return Math.floor((thursday - daysFromCivil(thursdayYear, 1, 1)) / 7) + 1;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, "0");
}

function formatYear(year: number): string {
  return year < 0 ? `-${pad(-year, 6)}` : year > 9999 ? `+${pad(year, 6)}` : pad(year, 4);
}

export function formatDate(c: CivilDateTime): string {
  return `${formatYear(c.year)}-${pad(c.month)}-${pad(c.day)}`;
}

export function formatTime(c: CivilDateTime): string {
  return `${pad(c.hour)}:${pad(c.minute)}:${pad(c.second)}`;
}

export function formatDateTime(c: CivilDateTime): string {
  return `${formatDate(c)}T${formatTime(c)}`;
}

/**
 * "+05:30", "-03:00", "+00:00". Offsets with seconds (local mean time before 1900) keep them: "+00:53:28".
 */
export function formatOffset(offsetSeconds: number): string {
  const sign = offsetSeconds < 0 ? "-" : "+";
  const abs = Math.abs(offsetSeconds);
  const hhmm = `${sign}${pad(Math.floor(abs / 3600))}:${pad(Math.floor((abs % 3600) / 60))}`;
  return abs % 60 === 0 ? hhmm : `${hhmm}:${pad(abs % 60)}`;
}

export function formatUtc(seconds: number): string {
  return `${formatDateTime(secondsToCivil(seconds))}Z`;
}

export function formatWithOffset(utcSeconds: number, offsetSeconds: number): string {
  return formatDateTime(secondsToCivil(utcSeconds + offsetSeconds)) + formatOffset(offsetSeconds);
}
