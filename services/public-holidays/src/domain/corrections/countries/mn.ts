import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Mongolia: the whole calendar is served from here. */
export const MONGOLIA: AddedCountry = { code: "MN", timezone: "Asia/Ulaanbaatar", languages: ["mn", "en"] };

const NAGER =
  "Transcribed from Nager.Date's Mongolia provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia \"Public holidays in Mongolia\" and gives no validity years; Mongolia's Labour Law (holidays article) was not read offline. Tsagaan Sar and Chinggis Khaan's birthday (Mongolian lunar calendar) are not in Nager.Date and not served.";

const holiday = calendarOf("MN", NAGER);

export const MN: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day", mn: "Шинэ жил" }),
  holiday("womens-day", "03-08", { en: "International Women's Day", mn: "Олон Улсын Эмэгтэйчүүдийн Баяр" }),
  holiday(
    "mother-and-child-day",
    "06-01",
    { en: "Mother and Child Day", mn: "Эх, үрсийн баяр" },
    {
      note: 'Nager.Date files 1 June under the name "Naadam Holiday"; the day is Mother and Child Day (International Children\'s Day).',
    },
  ),
  holiday("naadam", "07-11 P5D", { en: "Naadam", mn: "Наадам" }),
  holiday("republic-day", "11-26", { en: "Republic Day", mn: "Улс тунхагласны өдөр" }),
  holiday("independence-day", "12-29", { en: "Independence Day", mn: "Тусгаар Тогтнолын Өдөр" }),
];
