import { describe, expect, it } from "vitest";
import { civilFromDays, civilToSeconds, daysFromCivil, formatOffset, isoWeek, secondsToCivil, weekdayName } from "../../src/domain/civil.js";

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
