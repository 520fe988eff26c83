import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService } from "@apiplat/testing";
import { megaCaller, type Caller } from "./helpers.js";
import service from "../src/service.js";
import { extendTable, type MonthTable } from "../src/domain/calendar-tables.js";

/**
 * date-holidays' Islamic month table ends with 1500 AH (2077) and its Hebrew one with 2100; the service adds the
 * missing rows from ICU's calendars so that every year up to 2100 has its lunar holidays. Expected days are found
 * here independently, by scanning ICU's calendar day by day.
 */
let h: Caller;
beforeAll(async () => {
  h = await megaCaller(await startService(service, { settings: { warmUp: false } }));
});
afterAll(async () => {
  await h?.close();
});

/** The Gregorian day (UTC) on which `calendar` has `day` of `month` of `year`. */
function gregorianOf(calendar: string, year: string, month: string, day: string): string {
  const format = new Intl.DateTimeFormat(`en-u-ca-${calendar}`, {
    timeZone: "UTC",
    year: "numeric",
    month: calendar === "hebrew" ? "long" : "numeric",
    day: "numeric",
  });
  for (let time = Date.UTC(2076, 0, 1); time < Date.UTC(2102, 0, 1); time += 86_400_000) {
    const parts = Object.fromEntries(format.formatToParts(new Date(time)).map((part) => [part.type, part.value]));
    if (parts.year === year && parts.month === month && parts.day === day) return new Date(time).toISOString().slice(0, 10);
  }
  throw new Error(`no ${day} ${month} ${year} in ${calendar}`);
}

async function holidays(country: string, year: number, name: RegExp): Promise<[string, string | null][]> {
  const { status, data } = await h.get(`/holidays?country=${country}&year=${year}&types=public,bank,school,optional,observance`);
  expect(status).toBe(200);
  return data.holidays.filter((holiday) => name.test(holiday.name)).map((holiday) => [holiday.date, holiday.lunar_date]);
}

describe("lunar holidays in every year up to 2100", () => {
  it("Islamic holidays after 1500 AH come from the Umm al-Qura calendar (United Arab Emirates)", async () => {
    expect(await holidays("AE", 2080, /Eid al-Fitr/)).toEqual([[gregorianOf("islamic-umalqura", "1503", "10", "1"), "calculated"]]);
    expect(await holidays("AE", 2100, /Eid al-Adha/)).toEqual([[gregorianOf("islamic-umalqura", "1523", "12", "10"), "calculated"]]);
    // The last months of the library's own table keep the library's days.
    expect(await holidays("AE", 2077, /Eid al-Fitr/)).toEqual([["2077-08-19", "calculated"]]);
  });

  it("2100 has its Hebrew holidays, Yom Kippur 5861 included (Israel)", async () => {
    expect(await holidays("IL", 2100, /Yom Kippur/)).toEqual([[gregorianOf("hebrew", "5861", "Tishri", "10"), "calculated"]]);
    expect(await holidays("IL", 2100, /^Passover \(Pesach\)$/)).toEqual([[gregorianOf("hebrew", "5860", "Nisan", "15"), "calculated"]]);
  });
});

describe("extending a month table", () => {
  it("adds each month's first day once, however often it runs (Tishri 5861 begins 4 October 2100)", () => {
    const table = { year: 5729 } as MonthTable;
    extendTable(table, "hebrew", 2100, 5860);
    extendTable(table, "hebrew", 2100, 5860);
    expect(table[2100][6]).toEqual([9, 4, 132]);
    // A common year's Adar is the table's Adar I and Adar II alike (5861 has one Adar, from 2 March 2101).
    expect([table[2101][11], table[2101][12]]).toEqual([
      [2, 2, 132],
      [2, 2, 132],
    ]);
    expect(table[2100][0]).toBeNull(); // Nisan 5860 is the library's own row, not added
  });
});
