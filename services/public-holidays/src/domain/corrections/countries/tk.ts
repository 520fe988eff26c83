import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Tokelau: the whole calendar is served from here. */
export const TOKELAU: AddedCountry = { code: "TK", timezone: "Pacific/Fakaofo", languages: ["en"] };

const holiday = calendarOf(
  "TK",
  "Transcribed from Nager.Date's Tokelau provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on Tokelau's public holidays and gives no validity years; no law of Tokelau was read offline.",
);

export const TK: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day" }),
  holiday("waitangi-day", "02-06", { en: "Waitangi Day" }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("easter-monday", "easter 1", { en: "Easter Monday" }),
  holiday("anzac-day", "04-25", { en: "Anzac Day" }),
  holiday("labour-day", "05-01", { en: "Labour Day" }),
  holiday("mothers-day", "05-10", { en: "Mother's Day" }),
  holiday("fathers-day", "08-10", { en: "Father's Day" }),
  holiday("tokehega-day", "09-03", { en: "Tokehega Day" }),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
  holiday("boxing-day", "12-26", { en: "Boxing Day" }),
];
