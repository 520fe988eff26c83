import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";
import { CALCULATED_EIDS, type EidFirstDay } from "./tr-calculated-eids.js";

/**
 * Türkiye's Ramazan and Kurban Bayramı follow the calendar of the Presidency of Religious Affairs (Diyanet), which
 * in some years began a day away from the Islamic calendar date-holidays computes: its observed days up to 2026, and
 * from 2027 the days Diyanet's own criterion gives (tr-calculated-eids.ts, written by scripts/diyanet-eids.ts).
 */
const LAW =
  "Ulusal Bayram ve Genel Tatiller Hakkında Kanun (Law No. 2429), art. 2: Ramazan Bayramı three days and Kurban Bayramı four days, on the dates of the Diyanet İşleri Başkanlığı calendar.";
const OBSERVED_SOURCE = `${LAW} The first days served as observed (2010-2026) are those of Nager.Date's Türkiye provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), whose table marks them verified against Diyanet's dates, and which its tests assert; Diyanet's calendars themselves were read offline only for 2023 and 2026, in press reports.`;
const CALCULATED_SOURCE = `${LAW} Calculated, as no Diyanet calendar for the year was read: by the criterion Diyanet computes its calendar with (unified Hijri calendar, International Hijri Calendar Union Congress, Istanbul 2016: the Moon 5° high and 8° from the Sun at a sunset before 00:00 UTC anywhere, or later on American land when the conjunction precedes fajr in New Zealand), which gives every first day Diyanet observed in 2010-2026.`;

const ENGINE_RULES = { fitr: "1 Shawwal PT90H", adha: "10 Dhu al-Hijjah PT114H" };
const DAYS = { fitr: 3, adha: 4 };
const NAMES = {
  fitr: { en: "End of Ramadan (Eid al-Fitr)", tr: "Ramazan Bayramı" },
  adha: { en: "Feast of the Sacrifice (Eid al-Adha)", tr: "Kurban Bayramı" },
};

/** Diyanet's dates for `eids` instead of the engine's, for the years they fall in. */
function diyanetEids(eids: readonly EidFirstDay[], lunarDate: "observed" | "calculated", source: string): Correction[] {
  const { add, remove } = correctionsOf("TR", source);
  const years = new Set(eids.map(({ kind, firstDay }) => `${kind} ${firstDay.slice(0, 4)}`));
  const removals = [...years].map((key) => {
    const [kind, year] = key.split(" ") as ["fitr" | "adha", string];
    return remove(`eid-al-${kind}-${year}-engine-date`, ENGINE_RULES[kind], { years: { from: Number(year), to: Number(year) } });
  });
  const additions = eids.map(({ kind, firstDay }) => add(`eid-al-${kind}-${firstDay}-${lunarDate}`, `${firstDay} P${DAYS[kind]}D`, NAMES[kind], { lunarDate }));
  return [...removals, ...additions];
}

/** First days of the two Eids as Diyanet observed them (Nager.Date's verified table, 1431-1447 AH). */
export const OBSERVED_FIRST_DAYS: { year: number; fitr: string; adha: string }[] = [
  { year: 2010, fitr: "2010-09-09", adha: "2010-11-16" },
  { year: 2011, fitr: "2011-08-30", adha: "2011-11-06" },
  { year: 2012, fitr: "2012-08-19", adha: "2012-10-26" },
  { year: 2013, fitr: "2013-08-08", adha: "2013-10-15" },
  { year: 2014, fitr: "2014-07-28", adha: "2014-10-04" },
  { year: 2015, fitr: "2015-07-17", adha: "2015-09-24" },
  { year: 2016, fitr: "2016-07-05", adha: "2016-09-12" },
  { year: 2017, fitr: "2017-06-25", adha: "2017-09-01" },
  { year: 2018, fitr: "2018-06-15", adha: "2018-08-21" },
  { year: 2019, fitr: "2019-06-04", adha: "2019-08-11" },
  { year: 2020, fitr: "2020-05-24", adha: "2020-07-31" },
  { year: 2021, fitr: "2021-05-13", adha: "2021-07-20" },
  { year: 2022, fitr: "2022-05-02", adha: "2022-07-09" },
  { year: 2023, fitr: "2023-04-21", adha: "2023-06-28" },
  { year: 2024, fitr: "2024-04-10", adha: "2024-06-16" },
  { year: 2025, fitr: "2025-03-30", adha: "2025-06-06" },
  { year: 2026, fitr: "2026-03-20", adha: "2026-05-27" },
];

const OBSERVED_EIDS: EidFirstDay[] = OBSERVED_FIRST_DAYS.flatMap(({ fitr, adha }) => [
  { kind: "fitr" as const, firstDay: fitr },
  { kind: "adha" as const, firstDay: adha },
]);

export const TR: Correction[] = [...diyanetEids(OBSERVED_EIDS, "observed", OBSERVED_SOURCE), ...diyanetEids(CALCULATED_EIDS, "calculated", CALCULATED_SOURCE)];
