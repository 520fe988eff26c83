import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for the Marshall Islands: the whole calendar is served from here. */
export const MARSHALL_ISLANDS: AddedCountry = { code: "MH", timezone: "Pacific/Majuro", languages: ["en"] };

const holiday = calendarOf(
  "MH",
  "Transcribed from Nager.Date's Marshall Islands provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on the Marshall Islands' public holidays and gives no validity years; no law of the Marshall Islands was read offline.",
);

export const MH: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day" }),
  holiday("remembrance-day", "03-01", { en: "Remembrance Day" }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("constitution-day", "05-01", { en: "Constitution Day" }),
  holiday("fishermens-day", "1st friday in July", { en: "Fishermen's Day" }),
  holiday("labour-day", "1st friday in September", { en: "Labour Day" }),
  holiday("manit-day", "friday before 10-01", { en: "Manit Day" }),
  holiday("presidents-day", "11-17", { en: "Presidents' Day" }),
  holiday("gospel-day", "1st friday in December", { en: "Gospel Day" }),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
  holiday("new-years-eve", "12-31", { en: "New Year's Eve" }),
];
