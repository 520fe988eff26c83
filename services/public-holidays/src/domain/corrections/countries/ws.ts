import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Samoa: the whole calendar is served from here. */
export const SAMOA: AddedCountry = { code: "WS", timezone: "Pacific/Apia", languages: ["en"] };

const holiday = calendarOf(
  "WS",
  "Transcribed from Nager.Date's Samoa provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on Samoa's public holidays and gives no validity years; no law of Samoa was read offline.",
);

export const WS: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day" }),
  holiday("new-years-day-2", "01-02", { en: "New Year's Day" }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("holy-saturday", "easter -1", { en: "Holy Saturday" }),
  holiday("easter-monday", "easter 1", { en: "Easter Monday" }),
  holiday("mothers-day", "2nd monday in May", { en: "Mother's Day" }),
  holiday("independence-day", "06-01", { en: "Independence Day" }),
  holiday("fathers-day", "2nd monday in August", { en: "Father's Day" }),
  holiday("lotu-a-tamaiti", "2nd monday in October", { en: "Lotu a Tamaiti" }),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
  holiday("boxing-day", "12-26", { en: "Boxing Day" }),
];
