import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Palau: the whole calendar is served from here. */
export const PALAU: AddedCountry = { code: "PW", timezone: "Pacific/Palau", languages: ["en"] };

const holiday = calendarOf(
  "PW",
  "Transcribed from Nager.Date's Palau provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on Palau's public holidays and gives no validity years; no law of Palau was read offline.",
);

export const PW: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day" }),
  holiday("youth-day", "03-15", { en: "Youth Day" }),
  holiday("senior-citizens-day", "05-05", { en: "Senior Citizens Day" }),
  holiday("presidents-day", "06-01", { en: "President's Day" }),
  holiday("constitution-day", "07-09", { en: "Constitution Day" }),
  holiday("labour-day", "1st monday in September", { en: "Labour Day" }),
  holiday("independence-day", "10-01", { en: "Independence Day" }),
  holiday("united-nations-day", "10-24", { en: "United Nations Day" }),
  holiday("thanksgiving-day", "4th thursday in November", { en: "Thanksgiving Day" }),
  holiday("family-day", "4th friday in November", { en: "Family Day" }),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
];
