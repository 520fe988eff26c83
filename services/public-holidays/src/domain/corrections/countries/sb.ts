import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for the Solomon Islands: the whole calendar is served from here. */
export const SOLOMON_ISLANDS: AddedCountry = { code: "SB", timezone: "Pacific/Guadalcanal", languages: ["en"] };

const holiday = calendarOf(
  "SB",
  "Transcribed from Nager.Date's Solomon Islands provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on the Solomon Islands' public holidays and gives no validity years; no law of the Solomon Islands was read offline. Here the sovereign's birthday is served from 2023 only, as the King's: Nager.Date names it the King's in every year and the Queen's birthday of earlier years (its date and name) is not in its provider.",
);

export const SB: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day" }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("holy-saturday", "easter -1", { en: "Holy Saturday" }),
  holiday("easter-monday", "easter 1", { en: "Easter Monday" }),
  holiday("whit-monday", "easter 50", { en: "Whit Monday" }),
  holiday("kings-birthday", "2nd friday in June since 2023", { en: "King's Birthday" }, { years: { from: 2023 } }),
  holiday("independence-day", "07-07", { en: "Independence Day" }),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
  holiday("thanksgiving-day", "12-26", { en: "National Day of Thanksgiving" }),
];
