import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { civilFromDays, civilToSeconds, daysFromCivil, formatOffset, isoWeek, secondsToCivil, weekdayName } from "../src/domain/civil.js";
import { parseInstant, parseWallTime } from "../src/domain/iso-input.js";
import { constantType, parsePosixTz, PosixTzError, transitionsOfYear } from "../src/domain/posix-tz.js";
import { closeMatches, editDistance } from "../src/domain/suggest.js";
import { parseTzif, TzifError } from "../src/domain/tzif.js";
import { readCountryNames, readZiIndex, readZoneTab, ZoneDatabase, ZoneDatabaseError } from "../src/zoneinfo/zone-database.js";
import { ZoneRules } from "../src/domain/zone-rules.js";

const utc = (text: string) => Date.parse(text) / 1000;
const at = (year: number, month: number, day: number, hour = 0, minute = 0) => civilToSeconds({ year, month, day, hour, minute, second: 0 });

describe("civil calendar", () => {
  it("round-trips days and civil dates across 5,000 years, agreeing with Date.UTC", () => {
    for (let days = -1_000_000; days <= 1_000_000; days += 997) {
      const c = civilFromDays(days);
      expect(daysFromCivil(c.year, c.month, c.day)).toBe(days);
      expect(Date.UTC(2000, 0, 1) / 86_400_000 + days - daysFromCivil(2000, 1, 1)).toBe(days);
      const d = new Date(days * 86_400_000);
      expect([c.year, c.month, c.day]).toEqual([d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]);
    }
  });

  it("computes ISO weeks at year edges and weekdays", () => {
    const week = (y: number, m: number, d: number) => isoWeek({ year: y, month: m, day: d, hour: 0, minute: 0, second: 0 });
    expect(week(2026, 1, 1)).toBe(1);
    expect(week(2027, 1, 1)).toBe(53);
    expect(week(2024, 12, 30)).toBe(1);
    expect(week(2021, 1, 3)).toBe(53);
    expect(weekdayName(secondsToCivil(0))).toBe("Thursday");
  });

  it("formats offsets as ±hh:mm, keeping the seconds of local mean time", () => {
    expect([formatOffset(0), formatOffset(19_800), formatOffset(-12_600), formatOffset(-17_762)]).toEqual(["+00:00", "+05:30", "-03:30", "-04:56:02"]);
  });
});

describe("POSIX TZ strings", () => {
  it("reads quoted numeric names and fractional offsets", () => {
    const tz = parsePosixTz("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0");
    expect(tz.standard).toEqual({ abbreviation: "+1030", offsetSeconds: 37_800, isDst: false });
    expect(tz.daylight?.type).toEqual({ abbreviation: "+11", offsetSeconds: 39_600, isDst: true });
  });

  it("gives the US rule when DST has no dates, and DST one hour ahead when it has no offset", () => {
    const [start, end] = transitionsOfYear(parsePosixTz("EST5EDT"), 2026);
    expect([start.at, end.at]).toEqual([utc("2026-03-08T07:00:00Z"), utc("2026-11-01T06:00:00Z")]);
    expect(start.type.offsetSeconds).toBe(-14_400);
  });

  it("treats 'starts January 1 00:00, ends December 31 24:00 + save' as DST all year (RFC 8536 3.3.1)", () => {
    const tz = parsePosixTz("EST5EDT,0/0,J365/25");
    expect(transitionsOfYear(tz, 2026)).toEqual([]);
    expect(constantType(tz)).toEqual({ abbreviation: "EDT", offsetSeconds: -14_400, isDst: true });
  });

  it("counts Jn without February 29 and n with it", () => {
    const jn = transitionsOfYear(parsePosixTz("AAA0BBB,J60/0,J300/0"), 2024);
    expect(jn[0].at).toBe(utc("2024-03-01T00:00:00Z"));
    const n = transitionsOfYear(parsePosixTz("AAA0BBB,59/0,300/0"), 2024);
    expect(n[0].at).toBe(utc("2024-02-29T00:00:00Z"));
  });

  it("takes transition hours past 24 and negative ones", () => {
    const israel = transitionsOfYear(parsePosixTz("IST-2IDT,M3.4.4/26,M10.5.0"), 2026);
    expect(israel[0].at).toBe(utc("2026-03-27T00:00:00Z"));
    const nuuk = transitionsOfYear(parsePosixTz("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"), 2026);
    expect(nuuk.map((t) => t.at)).toEqual([utc("2026-03-29T01:00:00Z"), utc("2026-10-25T01:00:00Z")]);
  });

  it.each(["CET-1CEST,M13.5.0,M10.5.0", "X1", "CET-1CEST,M3.5.0", "<+03-3", "CET-25", "CET-1CEST,M3.5.0,M10.5.0/168", "CET-1 junk"])("refuses %j", (text) => {
    expect(() => parsePosixTz(text)).toThrow(PosixTzError);
  });
});

/** A hand-made TZif file: `version` 1 or 2, two types, one transition at `transitionAt`. */
function tzif(version: 1 | 2, transitionAt: number, footer = ""): Buffer {
  const header = (timeCount: number) => {
    const h = Buffer.alloc(44);
    h.write("TZif", 0, "latin1");
    h[4] = version === 1 ? 0 : 0x32;
    [0, 0, 0, timeCount, 2, 8].forEach((count, i) => h.writeUInt32BE(count, 20 + i * 4));
    return h;
  };
  const block = (timeSize: 4 | 8) => {
    const time = Buffer.alloc(timeSize);
    if (timeSize === 8) time.writeBigInt64BE(BigInt(transitionAt));
    else time.writeInt32BE(Math.min(transitionAt, 2 ** 31 - 1)); // version 1 data cannot say 2100; readers skip it
    const types = Buffer.alloc(12);
    types.writeInt32BE(0, 0);
    types[5] = 0;
    types.writeInt32BE(3600, 6);
    types[10] = 1;
    types[11] = 4;
    return Buffer.concat([time, Buffer.from([1]), types, Buffer.from("AAA\0BBB\0", "latin1")]);
  };
  if (version === 1) return Buffer.concat([header(1), block(4)]);
  return Buffer.concat([header(1), block(4), header(1), block(8), Buffer.from(`\n${footer}\n`, "latin1")]);
}

describe("TZif files", () => {
  it("reads a version 1 file", () => {
    const data = parseTzif(tzif(1, 1000));
    expect(data).toEqual({
      version: 1,
      transitionTimes: [1000],
      transitionTypes: [1],
      types: [
        { offsetSeconds: 0, isDst: false, abbreviation: "AAA" },
        { offsetSeconds: 3600, isDst: true, abbreviation: "BBB" },
      ],
      footer: "",
    });
    const rules = new ZoneRules(data);
    expect([rules.typeAt(999).abbreviation, rules.typeAt(1000).abbreviation, rules.transitionAfter(1000)]).toEqual(["AAA", "BBB", null]);
  });

  it("reads 64-bit times beyond 2038 and the footer of a version 2 file", () => {
    const far = utc("2100-01-01T00:00:00Z");
    const data = parseTzif(tzif(2, far, "BBB-1"));
    expect([data.version, data.transitionTimes, data.footer]).toEqual([2, [far], "BBB-1"]);
  });

  it("refuses what is not TZif", () => {
    expect(() => parseTzif(Buffer.from("not a zone file at all, just some text padding it out"))).toThrow(TzifError);
    expect(() => parseTzif(Buffer.alloc(10))).toThrow(TzifError);
  });
});

describe("zone database", () => {
  it("reads the version, zones and links of tzdata.zi", () => {
    expect(readZiIndex("# version 2026z\nZ Europe/Berlin 0:53:28 - LMT 1893 Ap\nL Europe/Berlin Arctic/Longyearbyen\n")).toEqual({
      version: "2026z",
      zones: ["Europe/Berlin"],
      links: [{ target: "Europe/Berlin", name: "Arctic/Longyearbyen" }],
    });
    expect(() => readZiIndex("Z Europe/Berlin")).toThrow(ZoneDatabaseError);
  });

  it("reads zone.tab rows and iso3166.tab names", () => {
    const tab = readZoneTab("# comment\nDE\t+5230+01322\tEurope/Berlin\tmost of Germany\nNO\t+5955+01045\tEurope/Oslo\n");
    expect([...tab]).toEqual([
      ["Europe/Berlin", [{ countryCode: "DE", comment: "most of Germany" }]],
      ["Europe/Oslo", [{ countryCode: "NO", comment: null }]],
    ]);
    expect([...readCountryNames("#codes\nDE\tGermany\nUA\tUkraine\n")]).toEqual([
      ["DE", "Germany"],
      ["UA", "Ukraine"],
    ]);
  });

  it("fails loudly when the directory holds no tz database, or a zone file is missing or damaged", () => {
    expect(() => ZoneDatabase.load("/nonexistent-zoneinfo")).toThrow(ZoneDatabaseError);
    const dir = mkdtempSync(path.join(tmpdir(), "zoneinfo-"));
    try {
      writeFileSync(path.join(dir, "tzdata.zi"), "# version 2026z\nZ Mars/Olympus 0 - MMT\nZ Mars/Gale 0 - MMT\n");
      expect(() => ZoneDatabase.load(dir)).toThrow(/cannot load zone Mars\/Olympus .*ENOENT/);
      mkdirSync(path.join(dir, "Mars"));
      writeFileSync(path.join(dir, "Mars/Gale"), tzif(2, 1000, "AAA0"));
      writeFileSync(path.join(dir, "Mars/Olympus"), "garbage that is no TZif file at all, long enough for a header");
      expect(() => ZoneDatabase.load(dir)).toThrow(/cannot load zone Mars\/Olympus .*not a TZif file/);
      writeFileSync(path.join(dir, "Mars/Olympus"), tzif(2, 1000, "BBB-1"));
      const db = ZoneDatabase.load(dir);
      expect([db.version, db.entries.map((e) => e.name)]).toEqual(["2026z", ["Mars/Gale", "Mars/Olympus"]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("input parsing", () => {
  it("reads instants with Z, ±hh:mm, ±hhmm and ±hh", () => {
    const expected = { ok: true, value: utc("2026-07-01T12:00:00Z") };
    expect(parseInstant("2026-07-01T12:00:00Z")).toEqual(expected);
    expect(parseInstant("2026-07-01T14:00+02:00")).toEqual(expected);
    expect(parseInstant("2026-07-01 07:00:00-0500")).toEqual(expected);
    expect(parseInstant("2026-07-01T17:00:00+05")).toEqual(expected);
    expect(parseInstant("2026-07-01T12:00:00+24:00")).toEqual({ ok: false, issue: "has an offset outside -23:59..+23:59" });
    expect(parseInstant("2026-07-01Z")).toEqual({ ok: false, issue: "has an offset but no time of day" });
  });

  it("reads wall times with and without seconds, and a date alone as midnight", () => {
    expect(parseWallTime("2026-03-29T02:30")).toEqual({ ok: true, value: at(2026, 3, 29, 2, 30) });
    expect(parseWallTime("2024-02-29")).toEqual({ ok: true, value: at(2024, 2, 29) });
    expect(parseWallTime("2026-13-01")).toEqual({ ok: false, issue: "has a month outside 01-12" });
  });
});

describe("close matches", () => {
  it("counts a swap of neighbours as one edit", () => {
    expect([editDistance("berlin", "berlni"), editDistance("", "abc"), editDistance("kitten", "sitting")]).toEqual([1, 3, 3]);
  });

  it("gives the same answer with a cut-off as without, up to the cut-off", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const word = () => Array.from({ length: Math.floor(random() * 12) }, () => "abcd"[Math.floor(random() * 4)]).join("");
    for (let i = 0; i < 2000; i++) {
      const [a, b, max] = [word(), word(), Math.floor(random() * 5)];
      expect(Math.min(editDistance(a, b, max), max + 1)).toBe(Math.min(editDistance(a, b), max + 1));
    }
  });

  it("matches typos, bare cities and parts of names, closest first", () => {
    const names = ["Europe/Berlin", "Europe/Dublin", "America/New_York", "US/Eastern", "Asia/Kolkata"];
    expect(closeMatches("Europe/Berln", names)).toEqual(["Europe/Berlin"]);
    expect(closeMatches("new york", names)).toEqual(["America/New_York"]);
    expect(closeMatches("BERLIN", names)).toEqual(["Europe/Berlin"]);
    expect(closeMatches("Mars/Olympus", names)).toEqual([]);
  });
});
