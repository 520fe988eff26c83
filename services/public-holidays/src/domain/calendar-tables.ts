/**
 * date-holidays evaluates Islamic and Hebrew holidays from tables of month starts (date-holidays-parser's
 * internal/hijri-calendar.js and hebrew-calendar.js). The Islamic table ends with 1500 AH (late 2077) and the Hebrew
 * one with 2100, and a year's holidays need the next year's row too: without more, every Islamic holiday is missing
 * from 2077 on and every Hebrew one in 2100, though the API serves years up to 2100. The rows the tables lack are added
 * when the service is built (service.ts hands in the library's table modules), from ICU's calendars
 * (Intl.DateTimeFormat): Umm al-Qura for the Islamic months after 1500 AH (so those dates are calculated by another
 * method than the library's, which differs by a day in about a third of months), and the Hebrew calendar, which is
 * arithmetic, for 5861 AM on. Extending twice adds nothing more.
 */
/** A table row per Gregorian year: per month of the other calendar, [month0, day, yearOffset, ...] of its first days. */
export type MonthTable = Record<number, (number[] | null)[]> & { year: number };

const DAY = 86_400_000;
const LAST_SERVED_YEAR = 2100;

/** Hebrew month names as ICU gives them -> the table's month indexes (Nisan first; a common year's Adar fills both). */
const HEBREW_INDEXES: Record<string, number[]> = {
  Nisan: [0],
  Iyar: [1],
  Sivan: [2],
  Tamuz: [3],
  Av: [4],
  Elul: [5],
  Tishri: [6],
  Heshvan: [7],
  Kislev: [8],
  Tevet: [9],
  Shevat: [10],
  "Adar I": [11],
  "Adar II": [12],
  Adar: [11, 12],
};

/**
 * Adds to `table` the first day of every month that ICU's `calendar` starts from `fromYear` to the year after the last
 * served one, for the months of its years after `lastTableYear` (the table's own months are kept as they are).
 */
export function extendTable(table: MonthTable, calendar: "islamic-umalqura" | "hebrew", fromYear: number, lastTableYear: number): void {
  for (const { date, year, month } of monthStarts(calendar, fromYear, LAST_SERVED_YEAR + 1)) {
    if (year <= lastTableYear) continue;
    const indexes = calendar === "hebrew" ? HEBREW_INDEXES[month] : [Number(month) - 1];
    if (!indexes) throw new Error(`unknown ${calendar} month ${month}`);
    const row = (table[date.getUTCFullYear()] ??= Array.from({ length: calendar === "hebrew" ? 13 : 12 }, () => null));
    const entry = [date.getUTCMonth(), date.getUTCDate(), year - table.year];
    for (const index of indexes) {
      const firstDays = (row[index] ??= []);
      if (!hasEntry(firstDays, entry)) firstDays.push(...entry);
    }
  }
}

/**
 * The first day of every month of ICU's `calendar` that begins in the Gregorian years `from` to `to`: its date (UTC),
 * and the month's year and month there (a number, or the Hebrew month's name).
 */
export function* monthStarts(calendar: "islamic-umalqura" | "hebrew", from: number, to: number): Generator<{ date: Date; year: number; month: string }> {
  const format = new Intl.DateTimeFormat(`en-u-ca-${calendar}`, {
    timeZone: "UTC",
    year: "numeric",
    month: calendar === "hebrew" ? "long" : "numeric",
    day: "numeric",
  });
  for (let time = Date.UTC(from, 0, 1); time < Date.UTC(to + 1, 0, 1); time += DAY) {
    const date = new Date(time);
    const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
    if (parts.day === "1") yield { date, year: Number.parseInt(parts.year, 10), month: parts.month };
  }
}

function hasEntry(firstDays: readonly number[], [month, day, offset]: number[]): boolean {
  for (let i = 0; i < firstDays.length; i += 3) if (firstDays[i] === month && firstDays[i + 1] === day && firstDays[i + 2] === offset) return true;
  return false;
}

/** The rows date-holidays' Islamic table (to 1500 AH) and Hebrew table (to 5860 AM) lack, up to the last served year. */
export function extendLibraryTables({ hijri, hebrew }: { hijri: MonthTable; hebrew: MonthTable }): void {
  extendTable(hijri, "islamic-umalqura", 2076, 1500);
  extendTable(hebrew, "hebrew", 2100, 5860);
}
