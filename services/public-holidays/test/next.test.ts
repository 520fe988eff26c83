import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { megaCaller, type Caller } from "./helpers.js";
import { startService } from "@apiplat/testing";
import service from "../src/service.js";

let clock = new Date("2026-12-31T23:30:00Z");
let h: Caller;
beforeAll(async () => {
  h = await megaCaller(await startService(service, { now: () => clock, settings: { warmUp: false } }));
});
afterAll(async () => {
  await h?.close();
});

describe("GET /next", () => {
  it("counts from today in the country's main time zone: already New Year's Day in Tokyo", async () => {
    clock = new Date("2026-12-31T23:30:00Z"); // 08:30 on 1 January 2027 in Tokyo
    const { status, headers, data } = await h.get("/next?country=JP");
    expect(status).toBe(200);
    expect(data).toMatchObject({ country_code: "JP", timezone: "Asia/Tokyo", from: "2027-01-01", until: "2028-01-01" });
    expect(data.holidays[0]).toMatchObject({ date: "2027-01-01", name: "New Year's Day", days_until: 0 });
    // Cached until the next local midnight: 15.5 hours.
    expect(headers["cache-control"]).toBe("private, max-age=55800");
  });

  it("still 31 December in New York at the same instant", async () => {
    clock = new Date("2026-12-31T23:30:00Z"); // 18:30 on 31 December 2026 in New York
    const { data } = await h.get("/next?country=US");
    expect(data).toMatchObject({ from: "2026-12-31", until: "2027-12-31" });
    expect(data.holidays[0]).toMatchObject({ date: "2026-12-31", name: "New Year's Eve", global: false, days_until: 0 });
    expect(data.holidays.find((holiday) => holiday.global)).toMatchObject({
      date: "2027-01-01",
      name: "New Year's Day",
      days_until: 1,
    });
  });

  it("runs through 365 days ahead inclusive, across two calendar years", async () => {
    clock = new Date("2025-12-31T23:00:00Z"); // midnight, 1 January 2026 in Berlin
    const { data } = await h.get("/next?country=DE&subdivision=DE-BE");
    expect(data).toMatchObject({ from: "2026-01-01", until: "2027-01-01", subdivision: "DE-BE", types: ["public"] });
    expect(data.holidays.map((holiday) => [holiday.date, holiday.days_until])).toEqual([
      ["2026-01-01", 0],
      ["2026-03-08", 66],
      ["2026-04-03", 92],
      ["2026-04-06", 95],
      ["2026-05-01", 120],
      ["2026-05-14", 133],
      ["2026-05-25", 144],
      ["2026-10-03", 275],
      ["2026-12-25", 358],
      ["2026-12-26", 359],
      ["2027-01-01", 365],
    ]);
    expect(data.count).toBe(11);
  });

  it("one second earlier it is still 2025 in Berlin: New Year's Day 2027 is out of reach", async () => {
    clock = new Date("2025-12-31T22:59:59Z");
    const { headers, data } = await h.get("/next?country=DE&subdivision=DE-BE");
    expect(data).toMatchObject({ from: "2025-12-31", until: "2026-12-31" });
    expect(headers["cache-control"]).toBe("private, max-age=1");
    expect(data.holidays[0]).toMatchObject({ date: "2026-01-01", days_until: 1 });
    expect(data.holidays.at(-1)).toMatchObject({ date: "2026-12-26", days_until: 360 });
  });

  it("honours types and rejects what /holidays rejects", async () => {
    clock = new Date("2026-12-01T12:00:00Z");
    const bank = await h.get("/next?country=DE&types=bank");
    expect(bank.data.holidays.map((holiday) => [holiday.date, holiday.local_name])).toEqual([
      ["2026-12-24", "Heiliger Abend"],
      ["2026-12-31", "Silvester"],
    ]);
    expect(bank.data.until).toBe("2027-12-01");
    expect((await h.get("/next?country=GER")).status).toBe(400);
    expect((await h.get("/next?country=DE&types=holiday")).status).toBe(400);
    expect((await h.get("/next")).error.details).toEqual([{ field: "country", issue: "is required" }]);
  });

  it("/holidays without a year uses the current year in the country's time zone", async () => {
    clock = new Date("2026-12-31T23:30:00Z");
    expect((await h.get("/holidays?country=JP")).data.year).toBe(2027);
    expect((await h.get("/holidays?country=US")).data.year).toBe(2026);
  });
});

describe("GET /is-holiday", () => {
  it("defaults to today in the country's time zone: New Year's Day in Tokyo, not yet in New York", async () => {
    clock = new Date("2026-12-31T23:30:00Z");
    const tokyo = await h.get("/is-holiday?country=JP");
    expect(tokyo.status).toBe(200);
    expect(tokyo.headers["cache-control"]).toBe("private, max-age=55800");
    expect(tokyo.data).toMatchObject({ country_code: "JP", date: "2027-01-01", is_holiday: true, count: 1 });
    expect(tokyo.data.holidays.map((holiday) => holiday.local_name)).toEqual(["元日"]);
    const newYork = await h.get("/is-holiday?country=US&subdivision=US-NY");
    expect(newYork.data).toMatchObject({ date: "2026-12-31", is_holiday: false, count: 0, holidays: [], subdivision: "US-NY" });
    // New Year's Eve is a state holiday in Kentucky, Michigan and Montana.
    const kentucky = await h.get("/is-holiday?country=US&subdivision=US-KY");
    expect(kentucky.data.holidays.map((holiday) => holiday.name)).toEqual(["New Year's Eve"]);
  });

  it("finds a multi-day holiday on its later days", async () => {
    const { headers, data } = await h.get("/is-holiday?country=AE&date=2026-03-22");
    expect(headers["cache-control"]).toBe("private, max-age=86400");
    expect(data).toMatchObject({ date: "2026-03-22", is_holiday: true });
    expect(data.holidays.map(({ name, date, end_date }) => ({ name, date, end_date }))).toEqual([
      { name: "End of Ramadan (Eid al-Fitr)", date: "2026-03-20", end_date: "2026-03-22" },
    ]);
    expect((await h.get("/is-holiday?country=AE&date=2026-03-23")).data.is_holiday).toBe(false);
  });

  it("honours types", async () => {
    expect((await h.get("/is-holiday?country=JP&date=2025-01-02")).data.is_holiday).toBe(false);
    const bank = await h.get("/is-holiday?country=JP&date=2025-01-02&types=bank");
    expect(bank.data).toMatchObject({ is_holiday: true, types: ["bank"] });
    expect(bank.data.holidays.map((holiday) => holiday.name)).toEqual(["January 2nd"]);
  });

  it.each(["1975-01-01", "2100-12-31"])("accepts %s", async (date) => {
    const { status, data } = await h.get(`/is-holiday?country=DE&date=${date}`);
    expect(status).toBe(200);
    expect(data).toMatchObject({ date, is_holiday: date === "1975-01-01" });
  });

  it.each(["1974-12-31", "2101-01-01"])("refuses %s", async (date) => {
    const { status, error } = await h.get(`/is-holiday?country=DE&date=${date}`);
    expect(status).toBe(400);
    expect(error.details).toEqual([{ field: "date", issue: "must be from 1975-01-01 to 2100-12-31" }]);
  });

  it.each(["2026-02-30", "tomorrow", "2026-1-1"])("refuses %s as no calendar date", async (date) => {
    const { status, error } = await h.get(`/is-holiday?country=DE&date=${date}`);
    expect(status).toBe(400);
    expect(error.details).toEqual([{ field: "date", issue: "must be a date as YYYY-MM-DD, e.g. 2026-11-25" }]);
  });
});
