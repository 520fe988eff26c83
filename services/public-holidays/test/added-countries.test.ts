import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService } from "@apiplat/testing";
import { megaCaller, type Caller, type Holiday } from "./helpers.js";
import service from "../src/service.js";

/**
 * Countries date-holidays does not cover, served from data transcribed from Nager.Date's providers and the
 * laws read offline: exact lists for a year, validity years at their edges, calculated Islamic dates.
 */
let h: Caller;
beforeAll(async () => {
  h = await megaCaller(await startService(service, { settings: { warmUp: false } }));
});
afterAll(async () => {
  await h?.close();
});

async function yearOf(country: string, year: number) {
  const { status, data } = await h.get(`/holidays?country=${country}&year=${year}`);
  expect(status).toBe(200);
  return data;
}

/** [first day, last day, English name, lunar_date] of each holiday. */
function listed(holidays: Holiday[]) {
  return holidays.map(({ date, end_date, name, lunar_date }) => [date, end_date, name, lunar_date]);
}

describe("Iraq (Nager.Date's provider; Official Holidays Law of 22 May 2024)", () => {
  it("2024: the fixed days and the calculated Islamic ones, Eid al-Ghadir included", async () => {
    const data = await yearOf("IQ", 2024);
    expect([data.country_name, data.timezone, data.local_language]).toEqual(["Iraq", "Asia/Baghdad", "ar"]);
    expect(listed(data.holidays)).toEqual([
      ["2024-01-01", "2024-01-01", "New Year's Day", null],
      ["2024-01-06", "2024-01-06", "Army Day", null],
      ["2024-03-21", "2024-03-21", "Nowruz", null],
      ["2024-04-10", "2024-04-12", "Eid al-Fitr", "calculated"],
      ["2024-05-01", "2024-05-01", "Labour Day", null],
      ["2024-06-16", "2024-06-19", "Eid al-Adha", "calculated"],
      ["2024-06-24", "2024-06-24", "Eid al-Ghadir", "calculated"],
      ["2024-07-07", "2024-07-07", "Islamic New Year", "calculated"],
      ["2024-07-16", "2024-07-16", "Ashura", "calculated"],
      ["2024-09-15", "2024-09-15", "The Prophet's Birthday", "calculated"],
      ["2024-10-03", "2024-10-03", "National Day", null],
      ["2024-12-10", "2024-12-10", "Victory Day", null],
      ["2024-12-25", "2024-12-25", "Christmas Day", null],
    ]);
    expect(data.holidays[6].local_name).toBe("عيد الغدير");
    expect(data.holidays[6].source).toContain("22 May 2024");
    for (const holiday of data.holidays) expect(holiday.source).toContain("Nager.Date's Iraq provider");
  });

  it("Eid al-Ghadir from 2024, National Day from 2020, Victory Day from 2017", async () => {
    const names2023 = (await yearOf("IQ", 2023)).holidays.map((holiday) => holiday.name);
    expect(names2023).not.toContain("Eid al-Ghadir");
    expect(names2023).toContain("National Day");
    const names2019 = (await yearOf("IQ", 2019)).holidays.map((holiday) => holiday.name);
    expect(names2019).not.toContain("National Day");
    expect(names2019).toContain("Victory Day");
    expect((await yearOf("IQ", 2016)).holidays.map((holiday) => holiday.name)).not.toContain("Victory Day");
  });
});

describe("Syria (Decree No. 188 of 2025; Decree No. 13 of 2026)", () => {
  it("2026: the decree's list with Nowruz, no 8 March, 6 May or 6 October", async () => {
    expect(listed((await yearOf("SY", 2026)).holidays)).toEqual([
      ["2026-01-01", "2026-01-01", "New Year's Day", null],
      ["2026-03-18", "2026-03-18", "Syrian Revolution Day", null],
      ["2026-03-20", "2026-03-22", "Eid al-Fitr", "calculated"],
      ["2026-03-21", "2026-03-21", "Mother's Day", null],
      ["2026-03-21", "2026-03-21", "Newroz", null],
      ["2026-04-05", "2026-04-05", "Easter Sunday (Western churches)", null],
      ["2026-04-12", "2026-04-12", "Easter Sunday (Eastern churches)", null],
      ["2026-04-17", "2026-04-17", "Independence Day", null],
      ["2026-05-01", "2026-05-01", "Labour Day", null],
      ["2026-05-27", "2026-05-30", "Eid al-Adha", "calculated"],
      ["2026-06-16", "2026-06-16", "Islamic New Year", "calculated"],
      ["2026-08-25", "2026-08-25", "The Prophet's Birthday", "calculated"],
      ["2026-12-08", "2026-12-08", "Liberation Day", null],
      ["2026-12-25", "2026-12-25", "Christmas Day", null],
    ]);
  });

  it("the abolished days until 2024; Liberation Day from 2025; Revolution Day and Nowruz from 2026", async () => {
    const names = async (year: number) => (await yearOf("SY", year)).holidays.map((holiday) => holiday.name);
    const y2024 = await names(2024);
    expect(y2024).toEqual(expect.arrayContaining(["Revolution of 8 March", "Martyrs' Day", "October War Day"]));
    expect(y2024).not.toEqual(expect.arrayContaining(["Liberation Day"]));
    const y2025 = await names(2025);
    expect(y2025).toContain("Liberation Day");
    for (const gone of ["Revolution of 8 March", "Martyrs' Day", "October War Day", "Syrian Revolution Day", "Newroz"]) {
      expect(y2025).not.toContain(gone);
    }
    const nowruz = (await yearOf("SY", 2026)).holidays.find((holiday) => holiday.name === "Newroz");
    expect(nowruz?.source).toContain("Decree No. 13 of 2026");
  });
});

describe("Yemen (Nager.Date's provider)", () => {
  it("2025, with Unity Day on 22 May (Nager.Date's 5 February is a slip)", async () => {
    expect(listed((await yearOf("YE", 2025)).holidays)).toEqual([
      ["2025-03-30", "2025-04-01", "Eid al-Fitr", "calculated"],
      ["2025-05-01", "2025-05-01", "Labour Day", null],
      ["2025-05-22", "2025-05-22", "Unity Day", null],
      ["2025-06-06", "2025-06-09", "Eid al-Adha", "calculated"],
      ["2025-06-26", "2025-06-26", "Islamic New Year", "calculated"],
      ["2025-09-04", "2025-09-04", "The Prophet's Birthday", "calculated"],
      ["2025-09-26", "2025-09-26", "Revolution Day", null],
      ["2025-10-14", "2025-10-14", "Liberation Day", null],
      ["2025-11-30", "2025-11-30", "Independence Day", null],
    ]);
  });
});

describe("Cambodia (Nager.Date's provider and its Khmer lunar tables for 2000-2049)", () => {
  it("2028: Khmer New Year from 13 April, the three lunar festivals calculated", async () => {
    const data = await yearOf("KH", 2028);
    expect(listed(data.holidays)).toEqual([
      ["2028-01-01", "2028-01-01", "New Year's Day", null],
      ["2028-01-07", "2028-01-07", "Victory over Genocide Day", null],
      ["2028-03-08", "2028-03-08", "International Women's Day", null],
      ["2028-04-13", "2028-04-15", "Khmer New Year", null],
      ["2028-05-01", "2028-05-01", "Labour Day", null],
      ["2028-05-12", "2028-05-12", "Royal Ploughing Ceremony", "calculated"],
      ["2028-05-14", "2028-05-14", "King Sihamoni's Birthday", null],
      ["2028-06-18", "2028-06-18", "Queen Mother's Birthday", null],
      ["2028-09-17", "2028-09-19", "Pchum Ben", "calculated"],
      ["2028-09-24", "2028-09-24", "Constitution Day", null],
      ["2028-10-15", "2028-10-15", "Commemoration Day of the King's Father", null],
      ["2028-10-29", "2028-10-29", "Coronation Day of King Sihamoni", null],
      ["2028-10-31", "2028-11-02", "Water Festival", "calculated"],
      ["2028-11-09", "2028-11-09", "National Independence Day", null],
      ["2028-12-29", "2028-12-29", "Cambodia Peace Day", null],
    ]);
    expect(data.holidays[3].local_name).toBe("ពិធីបុណ្យចូលឆ្នាំថ្មី ប្រពៃណីជាតិ");
  });

  it("the lunar tables end in 2049; Khmer New Year on 14 April in 2027 and 2029", async () => {
    const khmerNewYear = async (year: number) =>
      (await yearOf("KH", year)).holidays.filter((holiday) => holiday.name === "Khmer New Year").map((holiday) => holiday.date);
    expect(await khmerNewYear(2027)).toEqual(["2027-04-14"]);
    expect(await khmerNewYear(2029)).toEqual(["2029-04-14"]);
    expect(await khmerNewYear(2050)).toEqual([]);
    const names2050 = (await yearOf("KH", 2050)).holidays.map((holiday) => holiday.name);
    expect(names2050).not.toEqual(expect.arrayContaining(["Pchum Ben"]));
    expect(names2050).toContain("National Independence Day");
  });

  it("the King's days begin with his reign (2005) and the King Father's with 2013", async () => {
    const names2004 = (await yearOf("KH", 2004)).holidays.map((holiday) => holiday.name);
    expect(names2004).not.toContain("King Sihamoni's Birthday");
    expect(names2004).not.toContain("Coronation Day of King Sihamoni");
    const names2012 = (await yearOf("KH", 2012)).holidays.map((holiday) => holiday.name);
    expect(names2012).toContain("King Sihamoni's Birthday");
    expect(names2012).not.toContain("Commemoration Day of the King's Father");
  });
});

describe("Mongolia (Nager.Date's provider)", () => {
  it("2026: Naadam 11-15 July; 1 June is Mother and Child Day", async () => {
    expect(listed((await yearOf("MN", 2026)).holidays)).toEqual([
      ["2026-01-01", "2026-01-01", "New Year's Day", null],
      ["2026-03-08", "2026-03-08", "International Women's Day", null],
      ["2026-06-01", "2026-06-01", "Mother and Child Day", null],
      ["2026-07-11", "2026-07-15", "Naadam", null],
      ["2026-11-26", "2026-11-26", "Republic Day", null],
      ["2026-12-29", "2026-12-29", "Independence Day", null],
    ]);
  });
});

describe("Pacific and South Atlantic countries (Nager.Date's providers)", () => {
  it.each([
    ["SB", "Pacific/Guadalcanal", ["01-01", "04-03", "04-04", "04-06", "05-25", "06-12", "07-07", "12-25", "12-26"]],
    ["WS", "Pacific/Apia", ["01-01", "01-02", "04-03", "04-04", "04-06", "05-11", "06-01", "08-10", "10-12", "12-25", "12-26"]],
    [
      "KI",
      "Pacific/Tarawa",
      ["01-01", "03-08", "04-03", "04-06", "04-07", "05-01", "06-20", "07-10", "07-11", "07-12", "07-13", "08-07", "10-05", "12-10", "12-25", "12-26"],
    ],
    ["MH", "Pacific/Majuro", ["01-01", "03-01", "04-03", "05-01", "07-03", "09-04", "09-25", "11-17", "12-04", "12-25", "12-31"]],
    ["PW", "Pacific/Palau", ["01-01", "03-15", "05-05", "06-01", "07-09", "09-07", "10-01", "10-24", "11-26", "11-27", "12-25"]],
    ["NR", "Pacific/Nauru", ["01-01", "01-31", "03-08", "04-03", "04-06", "04-07", "05-17", "07-01", "08-19", "09-25", "10-26", "12-25", "12-26"]],
    ["TV", "Pacific/Funafuti", ["01-01", "03-09", "04-03", "04-06", "05-11", "06-13", "08-03", "10-01", "10-02", "12-25", "12-26"]],
    ["FK", "Atlantic/Stanley", ["01-01", "04-03", "06-14", "06-15", "10-05", "11-14", "11-16", "12-08", "12-25", "12-26", "12-27", "12-30", "12-31"]],
    ["NU", "Pacific/Niue", ["01-01", "01-02", "04-03", "04-06", "06-01", "10-19", "10-26", "12-25", "12-26"]],
    ["TK", "Pacific/Fakaofo", ["01-01", "02-06", "04-03", "04-06", "04-25", "05-01", "05-10", "08-10", "09-03", "12-25", "12-26"]],
    ["PN", "Pacific/Pitcairn", ["01-01", "01-23", "04-03", "04-06", "06-13", "12-25", "12-26"]],
  ])("%s 2026 in %s", async (code, timezone, days) => {
    const data = await yearOf(code as string, 2026);
    expect(data.timezone).toBe(timezone);
    expect(data.holidays.map((holiday) => holiday.date)).toEqual((days as string[]).map((day) => `2026-${day}`));
    for (const holiday of data.holidays) expect(holiday.source).toContain("Nager.Date's");
  });

  it("the sovereign's birthday only from 2023 (Nager.Date has no Queen's birthday)", async () => {
    for (const code of ["SB", "TV", "FK", "NU", "PN"]) {
      const names = async (year: number) => (await yearOf(code, year)).holidays.map((holiday) => holiday.name);
      expect((await names(2022)).some((name: string) => name.startsWith("King's"))).toBe(false);
      expect((await names(2023)).some((name: string) => name.startsWith("King's"))).toBe(true);
    }
  });

  it("the Falklands move a weekend Liberation Day to the Monday, and have Peat Cutting Day from 2002", async () => {
    const liberation = (await yearOf("FK", 2026)).holidays.filter((holiday) => holiday.name.startsWith("Liberation Day"));
    expect(liberation.map(({ date, substitute }) => [date, substitute])).toEqual([
      ["2026-06-14", false],
      ["2026-06-15", true],
    ]);
    expect((await yearOf("FK", 2001)).holidays.map((holiday) => holiday.name)).not.toContain("Peat Cutting Day");
    expect((await yearOf("FK", 2002)).holidays.map((holiday) => holiday.date)).toContain("2002-10-07");
  });

  it("Tuvalu's names are in Tuvaluan where Nager.Date has them", async () => {
    const data = await yearOf("TV", 2026);
    expect(data.local_language).toBe("tvl");
    expect(data.holidays.find((holiday) => holiday.name === "Gospel Day")?.local_name).toBe("Te Aso o te Tala Lei");
  });
});

describe("territories without public holidays", () => {
  it.each(["AQ", "BV", "GS", "HM", "TF", "UM"])("%s answers an empty list, not a 404", async (code) => {
    const data = await yearOf(code, 2026);
    expect([data.country_code, data.count, data.holidays]).toEqual([code, 0, []]);
    const next = await h.get(`/next?country=${code}`);
    expect([next.status, next.data.holidays]).toEqual([200, []]);
    const today = await h.get(`/is-holiday?country=${code}&date=2026-12-25`);
    expect([today.status, today.data.is_holiday]).toEqual([200, false]);
  });

  it("are listed by /countries with their zones (UTC where none exists)", async () => {
    const { data } = await h.get("/countries");
    const zones = Object.fromEntries(
      data.countries.filter((country) => ["AQ", "BV", "GS", "HM", "TF", "UM"].includes(country.code)).map((country) => [country.code, country.timezone]),
    );
    expect(zones).toEqual({
      AQ: "Antarctica/McMurdo",
      BV: "UTC",
      GS: "Atlantic/South_Georgia",
      HM: "UTC",
      TF: "Indian/Kerguelen",
      UM: "Pacific/Midway",
    });
  });
});
