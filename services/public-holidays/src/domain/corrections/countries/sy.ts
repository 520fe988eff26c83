import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Syria: the whole calendar is served from here. */
export const SYRIA: AddedCountry = { code: "SY", timezone: "Asia/Damascus", languages: ["ar", "en"] };

const DECREE_188 =
  "Presidential Decree No. 188 of 2025 (5 October 2025) on official holidays with full pay for state employees (text as published by SANA and reported by the press, read offline): Eid al-Fitr 3 days, Eid al-Adha 4 days, Islamic New Year, the Prophet's Birthday, 1 January, Christmas 25 December, Mother's Day 21 March, Evacuation Day 17 April, Easter of the Eastern and of the Western churches, Labour Day 1 May, Liberation Day 8 December and Syrian Revolution Day 18 March; it abolished 8 March, Martyrs' Day (6 May), the October War anniversary (6 October) and Teachers' Day. Names as in Nager.Date's Syria provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites Wikipedia.";
const LUNAR = `${DECREE_188} Islamic dates are the computed calendar dates (lunar_date: calculated): the Ministry of Awqaf fixes them by local moon sighting, often a day apart.`;
const BEFORE_THE_DECREE = `${DECREE_188} The days it abolished are served for the years before 2025 (their earlier legal basis and first years were not read offline; 2025's own 8 March and 6 May are left out as it is not known whether the transitional government kept them).`;

const holiday = calendarOf("SY", DECREE_188);
// Nowruz shares 21 March with Mother's Day: its rule names its first year so that the two rules differ.
const lunar = (id: string, rule: string, name: { en: string; ar: string }) => holiday(id, rule, name, { source: LUNAR });
const abolished = (id: string, rule: string, name: { en: string; ar: string }) => holiday(id, rule, name, { years: { to: 2024 }, source: BEFORE_THE_DECREE });

export const SY: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day", ar: "عيد رأس السنة الميلادية" }),
  abolished("revolution-of-8-march", "03-08", { en: "Revolution of 8 March", ar: "ثورة الثامن من آذار" }),
  holiday("syrian-revolution-day", "03-18", { en: "Syrian Revolution Day", ar: "عيد الثورة السورية" }, { years: { from: 2026 } }),
  holiday("mothers-day", "03-21", { en: "Mother's Day", ar: "عيد الأم" }),
  holiday(
    "nowruz",
    "03-21 since 2026",
    { en: "Newroz", ar: "عيد النوروز" },
    {
      years: { from: 2026 },
      source:
        "Presidential Decree No. 13 of 2026 (16 January 2026), art. 5: Nowruz, 21 March, is an official paid holiday throughout the Syrian Arab Republic (press reports of the decree read offline). Name as in Nager.Date's Syria provider, which has it in every year.",
    },
  ),
  holiday("evacuation-day", "04-17", { en: "Independence Day", ar: "عيد الجلاء" }),
  holiday("easter-western", "easter", { en: "Easter Sunday (Western churches)", ar: "عيد الفصح غريغوري" }),
  holiday("easter-eastern", "orthodox", { en: "Easter Sunday (Eastern churches)", ar: "عيد الفصح اليوليوسي" }),
  holiday("labour-day", "05-01", { en: "Labour Day", ar: "عيد العمال" }),
  abolished("martyrs-day", "05-06", { en: "Martyrs' Day", ar: "عيد الشهداء" }),
  abolished("october-war", "10-06", { en: "October War Day", ar: "ذكرى حرب تشرين التحريرية" }),
  holiday("liberation-day", "12-08", { en: "Liberation Day", ar: "يوم التحرير" }, { years: { from: 2025 } }),
  holiday("christmas-day", "12-25", { en: "Christmas Day", ar: "عيد الميلاد المجيد" }),
  lunar("islamic-new-year", "1 Muharram", { en: "Islamic New Year", ar: "عيد رأس السنة الهجرية" }),
  lunar("mawlid", "12 Rabi al-awwal", { en: "The Prophet's Birthday", ar: "المولد النبوي الشريف" }),
  lunar("eid-al-fitr", "1 Shawwal P3D", { en: "Eid al-Fitr", ar: "عيد الفطر" }),
  lunar("eid-al-adha", "10 Dhu al-Hijjah P4D", { en: "Eid al-Adha", ar: "عيد الأضحى" }),
];
