import { describe, expect, it } from "vitest";
import { monthStart } from "../scripts/diyanet-criterion.js";
import { calculatedEids, FIRST_CALCULATED_YEAR, LAST_CALCULATED_YEAR } from "../scripts/diyanet-eids.js";
import { OBSERVED_FIRST_DAYS } from "../src/domain/corrections/countries/tr.js";
import { CALCULATED_EIDS } from "../src/domain/corrections/countries/tr-calculated-eids.js";

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe("Diyanet's criterion (unified Hijri calendar, Istanbul 2016)", () => {
  it("gives every first day of the two Eids Diyanet observed in 2010-2026", () => {
    const given = OBSERVED_FIRST_DAYS.flatMap(({ fitr, adha }) => {
      const shawwal = monthStart(new Date(fitr)).firstDay;
      const dhuAlHijjah = monthStart(new Date(Date.parse(adha) - 9 * DAY)).firstDay;
      return [shawwal, isoDay(Date.parse(dhuAlHijjah) + 9 * DAY)];
    });
    expect(given).toEqual(OBSERVED_FIRST_DAYS.flatMap(({ fitr, adha }) => [fitr, adha]));
  });

  it("begins a month by its second condition (American land after 00:00 UTC) only when the first fails", () => {
    // 3 June 2019: no sunset before 00:00 UTC showed the Moon; the Pacific coast of the Americas did, after midnight.
    const eid2019 = monthStart(new Date("2019-06-04"));
    expect([eid2019.firstDay, eid2019.seen.americasAfterMidnight]).toEqual(["2019-06-04", true]);
    const eid2026 = monthStart(new Date("2026-03-20"));
    expect([eid2026.firstDay, eid2026.seen.americasAfterMidnight]).toEqual(["2026-03-20", false]);
    expect(eid2026.seen.altitude).toBeGreaterThanOrEqual(5);
    expect(eid2026.seen.elongation).toBeGreaterThanOrEqual(8);
  });

  it("wrote the table of calculated Eids the service serves (2027-2100), as a run now writes it", () => {
    expect([FIRST_CALCULATED_YEAR, LAST_CALCULATED_YEAR]).toEqual([2027, 2100]);
    expect(CALCULATED_EIDS).toEqual(calculatedEids(FIRST_CALCULATED_YEAR, LAST_CALCULATED_YEAR));
    // Two Ramazan Bayramı in 2065 (8 January and 28 December), one of each Eid in the other years.
    expect(CALCULATED_EIDS.filter(({ firstDay }) => firstDay.startsWith("2065")).map(({ kind, firstDay }) => `${kind} ${firstDay}`)).toEqual([
      "fitr 2065-01-08",
      "adha 2065-03-17",
      "fitr 2065-12-28",
    ]);
  }, 60_000);
});
