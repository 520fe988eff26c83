import { describe, expect, it } from "vitest";
import { daysOf, fillSeries, isCalendarDate, resolveWindow } from "../../src/domain/stats-window.js";

describe("stats windows", () => {
  it("default to the link's creation day (at most 366 days back) through today, both included", () => {
    const now = new Date("2026-03-02T12:00:00Z");
    expect(resolveWindow(new Date("2026-03-01T08:00:00Z"), now)).toEqual({ from: "2026-03-01", to: "2026-03-02" });
    expect(resolveWindow(new Date("2020-01-01T00:00:00Z"), now)).toEqual({ from: "2025-03-02", to: "2026-03-02" });
    expect(daysOf(resolveWindow(new Date("2020-01-01T00:00:00Z"), now))).toHaveLength(366);
    expect(resolveWindow(new Date("2026-03-01T08:00:00Z"), now, "2026-02-27", "2026-03-01")).toEqual({ from: "2026-02-27", to: "2026-03-01" });
  });

  it("list every day, zero-filled, across month ends", () => {
    expect(daysOf({ from: "2026-02-27", to: "2026-03-01" })).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
    expect(fillSeries({ from: "2026-03-01", to: "2026-03-02" }, new Map([["2026-03-02", 5]]))).toEqual([
      { date: "2026-03-01", count: 0 },
      { date: "2026-03-02", count: 5 },
    ]);
  });

  it("accept only real calendar dates", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2026-02-29")).toBe(false);
    expect(isCalendarDate("2026-11-01T00:00:00Z")).toBe(false);
    expect(isCalendarDate("yesterday")).toBe(false);
  });
});
