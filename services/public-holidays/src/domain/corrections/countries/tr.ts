import type { Correction } from "../types.js";

/**
 * Türkiye's Ramazan and Kurban Bayramı follow the calendar of the Presidency of Religious Affairs
 * (Diyanet), which in some years began a day away from the Islamic calendar date-holidays computes.
 */
const LAW =
  "Ulusal Bayram ve Genel Tatiller Hakkında Kanun (Law No. 2429), art. 2: Ramazan Bayramı three days and Kurban Bayramı four days, on the dates of the Diyanet İşleri Başkanlığı calendar; the day given here is the first day that was officially observed that year (Diyanet's published calendar was not read offline when this entry was written; the dates are those Nager.Date's tests assert).";

function observedEid(kind: "fitr" | "adha", year: number, firstDay: string): Correction[] {
  const fitr = kind === "fitr";
  return [
    {
      id: `TR-eid-al-${kind}-${year}-calculated-date`,
      country: "TR",
      action: "remove",
      rule: fitr ? "1 Shawwal PT90H" : "10 Dhu al-Hijjah PT114H",
      years: { from: year, to: year },
      source: LAW,
    },
    {
      id: `TR-eid-al-${kind}-${year}-observed-date`,
      country: "TR",
      action: "add",
      rule: `${firstDay} P${fitr ? 3 : 4}D`,
      name: fitr
        ? { en: "End of Ramadan (Eid al-Fitr)", tr: "Ramazan Bayramı" }
        : { en: "Feast of the Sacrifice (Eid al-Adha)", tr: "Kurban Bayramı" },
      lunarDate: "observed",
      source: LAW,
    },
  ];
}

export const TR: Correction[] = [
  ...observedEid("fitr", 2010, "2010-09-09"),
  ...observedEid("adha", 2015, "2015-09-24"),
  ...observedEid("fitr", 2016, "2016-07-05"),
  ...observedEid("adha", 2016, "2016-09-12"),
];
