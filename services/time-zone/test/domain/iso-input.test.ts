import { describe, expect, it } from "vitest";
import { civilToSeconds } from "../../src/domain/civil.js";
import { parseInstant, parseWallTime } from "../../src/domain/iso-input.js";

const utc = (text: string) => Date.parse(text) / 1000;

const at = (year: number, month: number, day: number, hour = 0, minute = 0) => civilToSeconds({ year, month, day, hour, minute, second: 0 });

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
