import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Kiribati: the whole calendar is served from here. */
export const KIRIBATI: AddedCountry = { code: "KI", timezone: "Pacific/Tarawa", languages: ["en"] };

const holiday = calendarOf(
  "KI",
  "Transcribed from Nager.Date's Kiribati provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on Kiribati's public holidays and gives no validity years; no law of Kiribati was read offline.",
);

export const KI: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day" }),
  holiday("womens-day", "03-08", { en: "International Women's Day" }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("easter-monday", "easter 1", { en: "Easter Monday" }),
  holiday("health-day", "04-07", { en: "Health Day" }),
  holiday("labour-day", "05-01", { en: "Labour Day" }),
  holiday("police-day", "06-20", { en: "Police Day" }),
  holiday("gospel-day", "07-10", { en: "Gospel Day" }),
  holiday("culture-and-senior-citizens-day", "07-11", { en: "National Culture and Senior Citizens Day" }),
  holiday("national-day", "07-12", { en: "National Day" }),
  holiday("special-day", "07-13", { en: "Special Day" }),
  holiday("youth-day", "1st friday in August", { en: "National Youth Day" }),
  holiday("teachers-day", "10-05", { en: "World Teachers' Day" }),
  holiday("human-rights-and-peace-day", "12-10", { en: "Human Rights and Peace Day" }),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
  holiday("boxing-day", "12-26", { en: "Boxing Day" }),
];
