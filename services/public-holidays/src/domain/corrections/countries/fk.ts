import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for the Falkland Islands: the whole calendar is served from here. */
export const FALKLAND_ISLANDS: AddedCountry = { code: "FK", timezone: "Atlantic/Stanley", languages: ["en"] };

const holiday = calendarOf(
  "FK",
  "Transcribed from Nager.Date's Falkland Islands provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on the Falkland Islands' public holidays and gives no validity years; no law of the Falkland Islands was read offline. Here the sovereign's birthday is served from 2023 only, as the King's: Nager.Date names it the King's in every year and the Queen's birthday of earlier years (its date and name) is not in its provider; a day on a Saturday or Sunday moves to the Monday for New Year's Day, Liberation Day, the King's Birthday and Battle Day, as in Nager.Date.",
);

export const FK: Correction[] = [
  holiday("new-years-day", "01-01 and if saturday,sunday then next monday", { en: "New Year's Day" }, { substitute: true }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("liberation-day", "06-14 and if saturday,sunday then next monday", { en: "Liberation Day" }, { substitute: true }),
  holiday("peat-cutting-day", "1st monday in October since 2002", { en: "Peat Cutting Day" }, { years: { from: 2002 } }),
  holiday("kings-birthday", "11-14 and if saturday,sunday then next monday", { en: "King's Birthday" }, { substitute: true, years: { from: 2023 } }),
  holiday("battle-day", "12-08 and if saturday,sunday then next monday", { en: "Battle Day" }, { substitute: true }),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
  holiday("boxing-day", "12-26", { en: "Boxing Day" }),
  holiday("christmas-holiday", "12-27", { en: "Christmas Holiday" }),
  holiday("government-holiday-30", "12-30", { en: "Government Holiday" }),
  holiday("government-holiday-31", "12-31", { en: "Government Holiday" }),
];
