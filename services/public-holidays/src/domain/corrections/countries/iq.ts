import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Iraq: the whole calendar is served from here. */
export const IRAQ: AddedCountry = { code: "IQ", timezone: "Asia/Baghdad", languages: ["ar", "en"] };

const NAGER =
  "Transcribed from Nager.Date's Iraq provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites Wikipedia \"Public holidays in Iraq\"; the Official Holidays Law passed by the Council of Representatives on 22 May 2024 (press reports read offline: Friday and Saturday weekly, 1 January, 6 January, 21 March, 1 May, Eid al-Fitr, Eid al-Adha, 1 and 10 Muharram, 12 Rabi' al-Awwal, 18 Dhu al-Hijjah) was not read in the Official Gazette.";
const LUNAR = `${NAGER} Islamic dates are the computed calendar dates (lunar_date: calculated): Iraq fixes them by moon sighting (Sunni Endowment Diwan and Shia authorities), often a day apart.`;
const NATIONAL_DAY = `${NAGER} National Day (independence and the end of the British mandate, 3 October 1932) was made a yearly holiday by the Council of Ministers on 1 September 2020.`;
const VICTORY_DAY = `${NAGER} Victory Day marks the declared victory over ISIS of December 2017; no earlier year has it.`;
const EID_AL_GHADIR = `${LUNAR} Eid al-Ghadir was added by the Official Holidays Law of 22 May 2024.`;

const holiday = calendarOf("IQ", NAGER);
const lunar = (id: string, rule: string, name: { en: string; ar: string }, extra: Partial<Correction> = {}) =>
  holiday(id, rule, name, { source: LUNAR, ...extra });

export const IQ: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day", ar: "رأس السنة الميلادية" }),
  holiday("army-day", "01-06", { en: "Army Day", ar: "عيد الجيش" }),
  holiday("nowruz", "03-21", { en: "Nowruz", ar: "عيد نوروز" }),
  holiday("labour-day", "05-01", { en: "Labour Day", ar: "عيد العمال" }),
  holiday("national-day", "10-03", { en: "National Day", ar: "اليوم الوطني" }, { years: { from: 2020 }, source: NATIONAL_DAY }),
  holiday("victory-day", "12-10", { en: "Victory Day", ar: "يوم النصر" }, { years: { from: 2017 }, source: VICTORY_DAY }),
  holiday("christmas-day", "12-25", { en: "Christmas Day", ar: "عيد الميلاد" }),
  lunar("islamic-new-year", "1 Muharram", { en: "Islamic New Year", ar: "رأس السنة الهجرية" }),
  lunar("ashura", "10 Muharram", { en: "Ashura", ar: "عاشوراء" }),
  lunar("mawlid", "12 Rabi al-awwal", { en: "The Prophet's Birthday", ar: "المولد النبوي" }),
  lunar("eid-al-fitr", "1 Shawwal P3D", { en: "Eid al-Fitr", ar: "عيد الفطر" }),
  lunar("eid-al-adha", "10 Dhu al-Hijjah P4D", { en: "Eid al-Adha", ar: "عيد الأضحى" }),
  lunar("eid-al-ghadir", "18 Dhu al-Hijjah", { en: "Eid al-Ghadir", ar: "عيد الغدير" }, { years: { from: 2024 }, source: EID_AL_GHADIR }),
];
