import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeAuth } from "@apiplat/testing/auth-suite";
import { client, startService, UnknownData, type StartedService, type TestSubscriber, type TypedClient } from "@apiplat/testing";
import type { TSchema } from "typebox";
import type { ServiceApp } from "@apiplat/service-kit";
import * as S from "../src/schemas.js";
import service from "../src/service.js";
import { DEFAULT_ZONEINFO_DIR } from "../src/zoneinfo/zone-database.js";
import { zoneinfoAnswers } from "./support/oracles.js";

const NOW = new Date("2026-07-01T12:00:00.750Z");
const zi = readFileSync(`${DEFAULT_ZONEINFO_DIR}/tzdata.zi`, "utf8");
const TZ_VERSION = /^# version (\S+)/m.exec(zi)![1];
const ZONE_LINES = zi.split("\n").filter((l) => l.startsWith("Z ") && !l.startsWith("Z Factory ")).length;
const LINK_LINES = zi.split("\n").filter((l) => l.startsWith("L ")).length;

let started: StartedService;
let app: ServiceApp;
let caller: TestSubscriber;
let api: TypedClient;

beforeAll(async () => {
  started = await startService(service, { now: () => NOW });
  app = started.app;
  caller = await started.subscribe("MEGA");
  api = client(started, caller.headers);
});
afterAll(() => started.close());

const get = (url: string, headers: Record<string, string> = caller.headers) => app.inject({ method: "GET", url, headers });
const data = async <Schema extends TSchema>(schema: Schema, url: string) => {
  const res = await api.get(schema, url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.data;
};
const failure = async (url: string, status: number) => {
  const res = await api.get(UnknownData, url);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ status: "error", request_id: res.headers["x-request-id"] });
  expect(typeof res.body.timestamp).toBe("string");
  return res.error;
};
const q = encodeURIComponent;

describe("GET /lookup", () => {
  it("answers every key for now (the injected clock, seconds dropped) in Europe/Berlin", async () => {
    expect(await data(S.LookupData, "/lookup?tz=Europe/Berlin")).toEqual({
      timezone: "Europe/Berlin",
      canonical_timezone: "Europe/Berlin",
      country_codes: ["DE"],
      datetime: "2026-07-01T14:00:00",
      date: "2026-07-01",
      time: "14:00:00",
      iso_8601: "2026-07-01T14:00:00+02:00",
      utc_datetime: "2026-07-01T12:00:00Z",
      unix_timestamp: 1782907200,
      weekday: "Wednesday",
      day_of_year: 182,
      week_number: 27,
      utc_offset: "+02:00",
      offset_seconds: 7200,
      raw_offset: 3600,
      dst_offset: 3600,
      dst_active: true,
      abbreviation: "CEST",
      dst_from: "2026-03-29T01:00:00Z",
      dst_until: "2026-10-25T01:00:00Z",
      next_transition: {
        at: "2026-10-25T01:00:00Z",
        unix_timestamp: 1792890000,
        utc_offset: "+01:00",
        offset_seconds: 3600,
        abbreviation: "CET",
        dst_active: false,
      },
      tz_version: TZ_VERSION,
    });
  });

  it("answers for the instant given in at=, outside DST giving the next DST period", async () => {
    const d = await data(S.LookupData, `/lookup?tz=America/New_York&at=${q("2026-01-15T08:30:00-05:00")}`);
    expect(d).toMatchObject({
      datetime: "2026-01-15T08:30:00",
      utc_datetime: "2026-01-15T13:30:00Z",
      unix_timestamp: 1768483800,
      weekday: "Thursday",
      utc_offset: "-05:00",
      offset_seconds: -18000,
      raw_offset: -18000,
      dst_offset: 0,
      dst_active: false,
      abbreviation: "EST",
      dst_from: "2026-03-08T07:00:00Z",
      dst_until: "2026-11-01T06:00:00Z",
      next_transition: { at: "2026-03-08T07:00:00Z", utc_offset: "-04:00", abbreviation: "EDT", dst_active: true },
    });
  });

  it.each([
    ["Europe/Istanbul", "2026-07-01T12:00:00Z", "+03", "+03:00"],
    ["Asia/Kolkata", "2026-07-01T12:00:00Z", "IST", "+05:30"],
    ["Asia/Kathmandu", "2026-07-01T12:00:00Z", "+0545", "+05:45"],
    ["Pacific/Chatham", "2026-01-01T12:00:00Z", "+1345", "+13:45"],
    ["America/Sao_Paulo", "2026-01-01T12:00:00Z", "-03", "-03:00"],
    ["Africa/Abidjan", "2026-01-01T12:00:00Z", "GMT", "+00:00"],
    ["Etc/GMT+5", "2026-01-01T12:00:00Z", "-05", "-05:00"],
    ["America/New_York", "1850-01-01T00:00:00Z", "LMT", "-04:56:02"],
  ])("writes %s's abbreviation as the tz database does (%s: %s, %s)", async (tz, at, abbreviation, offset) => {
    expect(await data(S.LookupData, `/lookup?tz=${tz.replace("+", "%2B")}&at=${q(at)}`)).toMatchObject({ abbreviation, utc_offset: offset });
  });

  it("keeps the tz database's negative DST in Europe/Dublin: winter GMT is the DST period of IST", async () => {
    expect(await data(S.LookupData, `/lookup?tz=Europe/Dublin&at=${q("2026-01-15T12:00:00Z")}`)).toMatchObject({
      abbreviation: "GMT",
      offset_seconds: 0,
      raw_offset: 3600,
      dst_offset: -3600,
      dst_active: true,
      dst_from: "2025-10-26T01:00:00Z",
      dst_until: "2026-03-29T01:00:00Z",
    });
  });

  it.each([
    ["America/Inuvik", "1980-07-15T12:00:00Z", "MDT", -25200, 3600],
    ["Pacific/Rarotonga", "1980-01-15T12:00:00Z", "-0930", -36000, 1800],
    ["America/Argentina/Cordoba", "2000-01-15T12:00:00Z", "-03", -14400, 3600],
    ["America/Scoresbysund", "2024-07-15T12:00:00Z", "-01", -7200, 3600],
    ["Europe/London", "1941-07-15T12:00:00Z", "BDST", 0, 7200],
  ])("infers %s's standard offset under DST as the tz source defines it (%s)", async (tz, at, abbreviation, raw, dst) => {
    expect(await data(S.LookupData, `/lookup?tz=${tz}&at=${q(at)}`)).toMatchObject({ abbreviation, dst_active: true, raw_offset: raw, dst_offset: dst });
  });

  it("gives half-hour DST in Australia/Lord_Howe", async () => {
    expect(await data(S.LookupData, `/lookup?tz=Australia/Lord_Howe&at=${q("2026-01-15T00:00:00Z")}`)).toMatchObject({
      utc_offset: "+11:00",
      raw_offset: 37800,
      dst_offset: 1800,
      dst_active: true,
      dst_from: "2025-10-04T15:30:00Z",
      dst_until: "2026-04-04T15:00:00Z",
    });
  });

  it("has no DST bounds and no next transition for a zone without DST", async () => {
    expect(await data(S.LookupData, "/lookup?tz=Asia/Tokyo")).toMatchObject({
      utc_offset: "+09:00",
      abbreviation: "JST",
      dst_active: false,
      dst_from: null,
      dst_until: null,
      next_transition: null,
    });
  });

  it("reads an unencoded + (a space once decoded) in Etc/GMT+5", async () => {
    expect(await data(S.LookupData, "/lookup?tz=Etc/GMT+5&at=2026-01-01T12:00:00Z")).toMatchObject({ timezone: "Etc/GMT+5", utc_offset: "-05:00" });
  });

  it("accepts an alias in any letter case and names its canonical zone", async () => {
    expect(await data(S.LookupData, "/lookup?tz=us/eastern")).toMatchObject({
      timezone: "US/Eastern",
      canonical_timezone: "America/New_York",
      utc_offset: "-04:00",
      abbreviation: "EDT",
    });
  });

  it("answers from the tz database files, not Node's ICU data, wherever the two disagree today", async () => {
    const instant = Date.UTC(2026, 10, 22, 12) / 1000;
    const zones = ["America/Edmonton", "America/Havana", "Africa/Casablanca", "Europe/Berlin", "Asia/Tokyo"];
    const python = await zoneinfoAnswers(DEFAULT_ZONEINFO_DIR, Object.fromEntries(zones.map((z) => [z, [instant]])), {});
    for (const tz of zones) {
      const d = await data(S.LookupData, `/lookup?tz=${tz}&at=2026-11-22T12:00:00Z`);
      const [offset, abbreviation] = python.instants[tz][0];
      expect({ tz, offset: d.offset_seconds, abbreviation: d.abbreviation }).toEqual({ tz, offset, abbreviation });
    }
  });

  it("refuses an unknown zone with 400 naming close matches", async () => {
    const error = await failure("/lookup?tz=Europe/Berln", 400);
    expect(error).toEqual({
      code: "VALIDATION_ERROR",
      message: 'tz "Europe/Berln" is not a known IANA time zone; did you mean Europe/Berlin?',
      details: [{ field: "tz", issue: "is not a known IANA time zone (did you mean Europe/Berlin?)" }],
    });
    expect((await failure(`/lookup?tz=${q("new york")}`, 400)).details?.[0].issue).toContain("America/New_York");
    expect((await failure("/lookup?tz=Kolkatta", 400)).details?.[0].issue).toContain("Asia/Kolkata");
    expect((await failure("/lookup?tz=Qwxzvbn", 400)).details?.[0].issue).toBe("is not a known IANA time zone (see /list for every name)");
  });

  it("requires tz", async () => {
    expect((await failure("/lookup", 400)).details).toEqual([{ field: "tz", issue: "is required" }]);
  });

  it("takes a tz of 64 characters and refuses 65", async () => {
    expect((await failure(`/lookup?tz=${"A".repeat(64)}`, 400)).details?.[0].issue).toContain("not a known IANA time zone");
    expect((await failure(`/lookup?tz=${"A".repeat(65)}`, 400)).details).toEqual([{ field: "tz", issue: "must be at most 64 characters long" }]);
  });

  it("takes at= from 1800-01-01T00:00:00Z to 2200-12-31T23:59:59Z and nothing outside", async () => {
    expect((await data(S.LookupData, "/lookup?tz=UTC&at=1800-01-01T00:00:00Z")).utc_datetime).toBe("1800-01-01T00:00:00Z");
    expect((await data(S.LookupData, "/lookup?tz=UTC&at=2200-12-31T23:59:59Z")).utc_datetime).toBe("2200-12-31T23:59:59Z");
    const issue = "must be between 1800-01-01T00:00:00Z and 2200-12-31T23:59:59Z";
    expect((await failure("/lookup?tz=UTC&at=1799-12-31T23:59:59Z", 400)).details).toEqual([{ field: "at", issue }]);
    expect((await failure("/lookup?tz=UTC&at=2201-01-01T00:00:00Z", 400)).details).toEqual([{ field: "at", issue }]);
    expect((await failure(`/lookup?tz=UTC&at=${q("1800-01-01T00:00:00+00:01")}`, 400)).details).toEqual([{ field: "at", issue }]);
  });

  it("computes the footer's POSIX rule far past the compiled table", async () => {
    expect(await data(S.LookupData, "/lookup?tz=Europe/Berlin&at=2200-07-01T00:00:00Z")).toMatchObject({
      abbreviation: "CEST",
      dst_from: "2200-03-30T01:00:00Z",
      dst_until: "2200-10-26T01:00:00Z",
    });
  });

  it("reads offsets in at=, drops fractions of a second, and refuses an instant without offset", async () => {
    expect((await data(S.LookupData, `/lookup?tz=UTC&at=${q("2026-07-01T14:00:00.999+02:00")}`)).utc_datetime).toBe("2026-07-01T12:00:00Z");
    expect((await data(S.LookupData, `/lookup?tz=UTC&at=${q("2026-07-01T14:00:00+0200")}`)).utc_datetime).toBe("2026-07-01T12:00:00Z");
    expect((await failure("/lookup?tz=UTC&at=2026-07-01T12:00:00", 400)).details).toEqual([
      { field: "at", issue: "must carry Z or a UTC offset (e.g. 2026-07-01T12:00:00Z or ...+02:00)" },
    ]);
    expect((await failure("/lookup?tz=UTC&at=yesterday", 400)).details).toEqual([
      { field: "at", issue: "must be an ISO 8601 date-time such as 2026-03-29T02:30:00" },
    ]);
    expect((await failure("/lookup?tz=UTC&at=2026-02-29T12:00:00Z", 400)).details).toEqual([{ field: "at", issue: "has a day outside 01-28 for that month" }]);
    expect((await failure("/lookup?tz=UTC&at=2026-07-01T24:00:00Z", 400)).details).toEqual([{ field: "at", issue: "has a time outside 00:00:00-23:59:59" }]);
  });

  it("takes at= of 40 characters and refuses 41", async () => {
    const forty = "2026-07-01T12:00:00.0000000000000000000Z";
    expect(forty).toHaveLength(40);
    expect((await failure(`/lookup?tz=UTC&at=${forty}`, 400)).details?.[0].issue).toContain("ISO 8601");
    expect((await failure(`/lookup?tz=UTC&at=${forty}0`, 400)).details).toEqual([{ field: "at", issue: "must be at most 40 characters long" }]);
  });
});

describe("GET /convert", () => {
  const convert = (time: string, from: string, to: string, disambiguation?: string) =>
    `/convert?time=${q(time)}&from=${q(from)}&to=${q(to)}${disambiguation ? `&disambiguation=${disambiguation}` : ""}`;

  it("converts an ordinary time between zones", async () => {
    expect(await data(S.ConvertData, convert("2026-07-01T09:00", "America/New_York", "Asia/Tokyo"))).toEqual({
      input: { time: "2026-07-01T09:00:00", timezone: "America/New_York" },
      from: {
        timezone: "America/New_York",
        datetime: "2026-07-01T09:00:00",
        iso_8601: "2026-07-01T09:00:00-04:00",
        utc_offset: "-04:00",
        offset_seconds: -14400,
        abbreviation: "EDT",
        dst_active: true,
      },
      to: {
        timezone: "Asia/Tokyo",
        datetime: "2026-07-01T22:00:00",
        iso_8601: "2026-07-01T22:00:00+09:00",
        utc_offset: "+09:00",
        offset_seconds: 32400,
        abbreviation: "JST",
        dst_active: false,
      },
      utc_datetime: "2026-07-01T13:00:00Z",
      unix_timestamp: 1782910800,
      offset_difference_seconds: 46800,
      resolution: "unique",
      disambiguation: "compatible",
      shifted_seconds: 0,
      candidates: [],
      note: null,
      tz_version: TZ_VERSION,
    });
  });

  it("moves a time in the spring-forward gap forward by default and says so", async () => {
    const d = await data(S.ConvertData, convert("2026-03-29T02:30:00", "Europe/Berlin", "UTC"));
    expect(d).toMatchObject({
      from: { datetime: "2026-03-29T03:30:00", abbreviation: "CEST" },
      to: { datetime: "2026-03-29T01:30:00" },
      resolution: "gap",
      disambiguation: "compatible",
      shifted_seconds: 3600,
      candidates: [
        { utc_datetime: "2026-03-29T00:30:00Z", iso_8601: "2026-03-29T01:30:00+01:00", abbreviation: "CET" },
        { utc_datetime: "2026-03-29T01:30:00Z", iso_8601: "2026-03-29T03:30:00+02:00", abbreviation: "CEST" },
      ],
      note:
        "2026-03-29T02:30:00 does not exist: clocks in Europe/Berlin changed from +01:00 CET to +02:00 CEST at 2026-03-29T01:00:00Z, " +
        "skipping 60 minutes; moved forward by the gap's length (disambiguation=compatible).",
    });
  });

  it("moves a time in the gap back with disambiguation=earlier, forward with later", async () => {
    expect(await data(S.ConvertData, convert("2026-03-29T02:30", "Europe/Berlin", "UTC", "earlier"))).toMatchObject({
      from: { datetime: "2026-03-29T01:30:00", abbreviation: "CET" },
      utc_datetime: "2026-03-29T00:30:00Z",
      shifted_seconds: -3600,
      disambiguation: "earlier",
    });
    expect((await data(S.ConvertData, convert("2026-03-29T02:30", "Europe/Berlin", "UTC", "later"))).utc_datetime).toBe("2026-03-29T01:30:00Z");
  });

  it("takes the earlier of two repeated times by default, the later one on request", async () => {
    expect(await data(S.ConvertData, convert("2026-10-25T02:30", "Europe/Berlin", "UTC"))).toMatchObject({
      from: { iso_8601: "2026-10-25T02:30:00+02:00", abbreviation: "CEST" },
      utc_datetime: "2026-10-25T00:30:00Z",
      resolution: "overlap",
      shifted_seconds: 0,
      candidates: [{ utc_datetime: "2026-10-25T00:30:00Z" }, { utc_datetime: "2026-10-25T01:30:00Z" }],
    });
    expect(await data(S.ConvertData, convert("2026-10-25T02:30", "Europe/Berlin", "UTC", "later"))).toMatchObject({
      from: { iso_8601: "2026-10-25T02:30:00+01:00", abbreviation: "CET" },
      utc_datetime: "2026-10-25T01:30:00Z",
      resolution: "overlap",
      disambiguation: "later",
    });
  });

  it("handles Lord Howe's 30-minute overlap and Samoa's skipped day", async () => {
    expect(await data(S.ConvertData, convert("2026-04-05T01:45", "Australia/Lord_Howe", "UTC", "later"))).toMatchObject({
      resolution: "overlap",
      utc_datetime: "2026-04-04T15:15:00Z",
      from: { utc_offset: "+10:30" },
    });
    expect(await data(S.ConvertData, convert("2011-12-30T12:00", "Pacific/Apia", "UTC"))).toMatchObject({
      resolution: "gap",
      shifted_seconds: 86400,
      from: { datetime: "2011-12-31T12:00:00", utc_offset: "+14:00" },
    });
  });

  it("refuses a skipped or repeated time with 422 when asked to reject", async () => {
    const gap = await failure(convert("2026-03-29T02:30", "Europe/Berlin", "UTC", "reject"), 422);
    expect(gap).toMatchObject({ code: "UNPROCESSABLE", details: [{ field: "time", issue: "falls in a DST gap" }] });
    expect(gap.message).toContain("2026-03-29T02:30:00 does not exist");
    const overlap = await failure(convert("2026-10-25T02:30", "Europe/Berlin", "UTC", "reject"), 422);
    expect(overlap).toMatchObject({ code: "UNPROCESSABLE", details: [{ field: "time", issue: "falls in a DST overlap" }] });
    expect((await data(S.ConvertData, convert("2026-07-01T12:00", "Europe/Berlin", "UTC", "reject"))).utc_datetime).toBe("2026-07-01T10:00:00Z");
  });

  it("reads a date alone as midnight and keeps quarter-hour offsets", async () => {
    expect(await data(S.ConvertData, convert("2026-07-01", "Asia/Kolkata", "Asia/Kathmandu"))).toMatchObject({
      input: { time: "2026-07-01T00:00:00" },
      to: { datetime: "2026-07-01T00:15:00" },
      offset_difference_seconds: 900,
    });
  });

  it("names the field of an unknown zone, with suggestions", async () => {
    expect((await failure(convert("2026-07-01T12:00", "Europe/Pari", "UTC"), 400)).details).toEqual([
      { field: "from", issue: "is not a known IANA time zone (did you mean Europe/Paris?)" },
    ]);
    expect((await failure(convert("2026-07-01T12:00", "UTC", "Asia/Tokio"), 400)).details).toEqual([
      { field: "to", issue: "is not a known IANA time zone (did you mean Asia/Tokyo?)" },
    ]);
  });

  it("takes years 1800 to 2200 and refuses 1799 and 2201", async () => {
    expect((await data(S.ConvertData, convert("1800-01-01T00:00", "UTC", "UTC"))).utc_datetime).toBe("1800-01-01T00:00:00Z");
    expect((await data(S.ConvertData, convert("2200-12-31T23:59:59", "UTC", "UTC"))).utc_datetime).toBe("2200-12-31T23:59:59Z");
    for (const time of ["1799-12-31T23:59:59", "2201-01-01T00:00:00"]) {
      expect((await failure(convert(time, "UTC", "UTC"), 400)).details).toEqual([{ field: "time", issue: "must have a year between 1800 and 2200" }]);
    }
  });

  it("refuses a time with an offset, a bad disambiguation and missing fields", async () => {
    expect((await failure(convert("2026-07-01T12:00:00Z", "UTC", "UTC"), 400)).details).toEqual([
      { field: "time", issue: "must be a local date-time without Z or offset; the zone is given by from" },
    ]);
    expect((await failure(convert("2026-07-01T12:00", "UTC", "UTC", "nearest"), 400)).details).toEqual([
      { field: "disambiguation", issue: "must be one of: compatible, earlier, later, reject" },
    ]);
    expect((await failure("/convert?from=UTC&to=UTC", 400)).details).toEqual([{ field: "time", issue: "is required" }]);
  });
});

describe("GET /transitions", () => {
  it("lists a year's changes with the wall clock on both sides, the current year by default", async () => {
    const expected = {
      timezone: "Europe/Berlin",
      canonical_timezone: "Europe/Berlin",
      year: 2026,
      count: 2,
      transitions: [
        {
          at: "2026-03-29T01:00:00Z",
          unix_timestamp: 1774746000,
          local_before: "2026-03-29T02:00:00",
          local_after: "2026-03-29T03:00:00",
          shift_seconds: 3600,
          before: { utc_offset: "+01:00", offset_seconds: 3600, abbreviation: "CET", dst_active: false },
          after: { utc_offset: "+02:00", offset_seconds: 7200, abbreviation: "CEST", dst_active: true },
        },
        {
          at: "2026-10-25T01:00:00Z",
          unix_timestamp: 1792890000,
          local_before: "2026-10-25T03:00:00",
          local_after: "2026-10-25T02:00:00",
          shift_seconds: -3600,
          before: { utc_offset: "+02:00", offset_seconds: 7200, abbreviation: "CEST", dst_active: true },
          after: { utc_offset: "+01:00", offset_seconds: 3600, abbreviation: "CET", dst_active: false },
        },
      ],
      tz_version: TZ_VERSION,
    };
    expect(await data(S.TransitionsData, "/transitions?tz=Europe/Berlin&year=2026")).toEqual(expected);
    expect(await data(S.TransitionsData, "/transitions?tz=Europe/Berlin")).toEqual(expected);
  });

  it("gives Samoa's skipped day, and nothing for a zone without changes", async () => {
    const apia = await data(S.TransitionsData, "/transitions?tz=Pacific/Apia&year=2011");
    expect(apia.transitions.map((t: { at: string; shift_seconds: number }) => [t.at, t.shift_seconds])).toEqual([
      ["2011-04-02T14:00:00Z", -3600],
      ["2011-09-24T14:00:00Z", 3600],
      ["2011-12-30T10:00:00Z", 86400],
    ]);
    expect(await data(S.TransitionsData, "/transitions?tz=Asia/Tokyo&year=2026")).toMatchObject({ count: 0, transitions: [] });
  });

  it("takes years 1800 to 2200 and nothing outside", async () => {
    expect((await data(S.TransitionsData, "/transitions?tz=America/New_York&year=1800")).count).toBe(0);
    expect((await data(S.TransitionsData, "/transitions?tz=America/New_York&year=2200")).count).toBe(2);
    expect((await failure("/transitions?tz=UTC&year=1799", 400)).details).toEqual([{ field: "year", issue: "must be at least 1800" }]);
    expect((await failure("/transitions?tz=UTC&year=2201", 400)).details).toEqual([{ field: "year", issue: "must be at most 2200" }]);
    expect((await failure("/transitions?tz=UTC&year=2026.5", 400)).details).toEqual([{ field: "year", issue: "must be an integer" }]);
    expect((await failure("/transitions?tz=Mars/Olympus", 400)).details?.[0].field).toBe("tz");
  });
});

describe("GET /list", () => {
  it("lists every canonical zone and alias of the tz database, about 600 names", async () => {
    const d = await data(S.ListData, "/list");
    expect(d.tz_version).toBe(TZ_VERSION);
    expect(d.total).toBe(ZONE_LINES + LINK_LINES);
    expect(d.count).toBe(d.total);
    expect(d.total).toBeGreaterThan(550);
    const names = d.zones.map((z: { name: string }) => z.name);
    expect(names).toEqual([...names].sort());
    expect(d.zones).toContainEqual({
      name: "Europe/Berlin",
      kind: "canonical",
      target: null,
      country_codes: ["DE"],
      comment: "most of Germany",
      utc_offset: "+02:00",
      abbreviation: "CEST",
      dst_active: true,
    });
    expect(d.zones).toContainEqual({
      name: "Europe/Kiev",
      kind: "alias",
      target: "Europe/Kyiv",
      country_codes: [],
      comment: null,
      utc_offset: "+03:00",
      abbreviation: "EEST",
      dst_active: true,
    });
    expect(names).not.toContain("Factory");
  });

  it("filters by part of a name or of an alias's target, spaces matching underscores", async () => {
    const d = await data(S.ListData, `/list?q=${q("new york")}`);
    expect(d.zones.map((z: { name: string }) => z.name)).toEqual(["America/New_York", "US/Eastern"]);
    expect(d.count).toBe(2);
    expect((await data(S.ListData, "/list?q=KIEV")).zones.map((z: { name: string }) => z.name)).toEqual(["Europe/Kiev"]);
    expect((await data(S.ListData, "/list?q=zzzz")).zones).toEqual([]);
  });

  it("filters by country code, and q matches country names", async () => {
    const names = (d: { zones: { name: string }[] }) => d.zones.map((z) => z.name);
    expect(names(await data(S.ListData, "/list?country=de"))).toEqual(["Europe/Berlin", "Europe/Busingen"]);
    expect(names(await data(S.ListData, "/list?q=germany"))).toEqual(["Europe/Berlin", "Europe/Busingen"]);
    expect((await data(S.ListData, "/list?country=US&kind=canonical")).count).toBeGreaterThan(20);
    expect((await failure("/list?country=XX", 400)).details).toEqual([{ field: "country", issue: "is not an ISO 3166-1 alpha-2 code the tz database knows" }]);
    expect((await failure("/list?country=DEU", 400)).details).toEqual([{ field: "country", issue: "must be at most 2 characters long" }]);
    expect((await failure("/list?country=D", 400)).details).toEqual([{ field: "country", issue: "must be at least 2 characters long" }]);
  });

  it("filters by kind", async () => {
    expect((await data(S.ListData, "/list?kind=canonical")).count).toBe(ZONE_LINES);
    const aliases = await data(S.ListData, "/list?kind=alias");
    expect(aliases.count).toBe(LINK_LINES);
    expect(aliases.zones.every((z: { kind: string; target: string | null }) => z.kind === "alias" && z.target !== null)).toBe(true);
  });

  it("takes q of 1 to 64 characters", async () => {
    expect((await data(S.ListData, `/list?q=${"a".repeat(64)}`)).count).toBe(0);
    expect((await failure(`/list?q=${"a".repeat(65)}`, 400)).details).toEqual([{ field: "q", issue: "must be at most 64 characters long" }]);
    expect((await failure("/list?q=", 400)).details).toEqual([{ field: "q", issue: "must not be empty" }]);
    expect((await failure("/list?kind=links", 400)).details).toEqual([{ field: "kind", issue: "must be one of: all, canonical, alias" }]);
  });
});

describeAuth({ started: () => started, method: "GET", url: "/lookup?tz=UTC" });

describe("gateway auth and platform routes", () => {
  it("meters requests: rate-limit headers, and BASIC's 101st request gets 429", async () => {
    const basic = await started.subscribe("BASIC");
    for (let i = 1; i <= 100; i++) {
      const res = await get("/lookup?tz=UTC", basic.headers);
      expect(res.statusCode).toBe(200);
      if (i === 100) expect(res.headers["x-ratelimit-requests-remaining"]).toBe("0");
    }
    const refused = await api.get(UnknownData, "/lookup?tz=UTC", basic.headers);
    expect([refused.status, refused.error.code]).toEqual([429, "QUOTA_EXCEEDED"]);
    const res = await get("/lookup?tz=UTC");
    expect(res.headers["x-ratelimit-requests-limit"]).toBe("1000000");
  });

  it("serves /health and an /openapi.json naming the four endpoints without a key", async () => {
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
    const spec = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(spec.openapi).toMatch(/^3\.1/);
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/lookup", "/convert", "/list", "/transitions"]));
    const required = (path: string) =>
      Object.fromEntries(spec.paths[path].get.parameters.map((p: { name: string; required: boolean }) => [p.name, p.required]));
    expect(required("/lookup")).toEqual({ tz: true, at: false });
    expect(required("/convert")).toEqual({ time: true, from: true, to: true, disambiguation: false });
    expect(required("/list")).toEqual({ q: false, kind: false, country: false });
    expect(required("/transitions")).toEqual({ tz: true, year: false });
  });
});
