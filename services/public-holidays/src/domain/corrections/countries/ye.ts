import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Yemen: the whole calendar is served from here. */
export const YEMEN: AddedCountry = { code: "YE", timezone: "Asia/Aden", languages: ["ar", "en"] };

const NAGER =
  "Transcribed from Nager.Date's Yemen provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia \"Public holidays in Yemen\"; Yemen's law on official holidays was not read offline.";
const LUNAR = `${NAGER} Islamic dates are the computed calendar dates (lunar_date: calculated): the Ministry of Endowments and Guidance fixes them by moon sighting, often a day apart.`;

const holiday = calendarOf("YE", NAGER);
const lunar = (id: string, rule: string, name: { en: string; ar: string }) => holiday(id, rule, name, { source: LUNAR });

export const YE: Correction[] = [
  holiday("labour-day", "05-01", { en: "Labour Day", ar: "عيد العمال" }),
  holiday(
    "unity-day",
    "05-22",
    { en: "Unity Day", ar: "اليوم الوطني للجمهورية اليمنية" },
    {
      years: { from: 1990 },
      note: "Nager.Date dates it 5 February, a slip for 22 May: the National Day of the Republic of Yemen is the anniversary of unification, 22 May 1990.",
    },
  ),
  holiday("revolution-day", "09-26", { en: "Revolution Day", ar: "ثورة 26 سبتمبر المجيدة" }),
  holiday("liberation-day", "10-14", { en: "Liberation Day", ar: "ثورة 14 أكتوبر المجيدة" }),
  holiday("independence-day", "11-30", { en: "Independence Day", ar: "عيد الجلاء" }),
  lunar("islamic-new-year", "1 Muharram", { en: "Islamic New Year", ar: "رأس السنة الهجرية" }),
  lunar("mawlid", "12 Rabi al-awwal", { en: "The Prophet's Birthday", ar: "المولد النبوي" }),
  lunar("eid-al-fitr", "1 Shawwal P3D", { en: "Eid al-Fitr", ar: "عيد الفطر" }),
  lunar("eid-al-adha", "10 Dhu al-Hijjah P4D", { en: "Eid al-Adha", ar: "عيد الأضحى" }),
];
