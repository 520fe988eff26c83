import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Niue: the whole calendar is served from here. */
export const NIUE: AddedCountry = { code: "NU", timezone: "Pacific/Niue", languages: ["en"] };

const holiday = calendarOf(
  "NU",
  "Transcribed from Nager.Date's Niue provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on Niue's public holidays and gives no validity years; no law of Niue was read offline. Here the sovereign's birthday is served from 2023 only, as the King's: Nager.Date names it the King's in every year and the Queen's birthday of earlier years (its date and name) is not in its provider.",
);

export const NU: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day" }),
  holiday("takai-commission-holiday", "01-02", { en: "Takai Commission Holiday" }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("easter-monday", "easter 1", { en: "Easter Monday" }),
  holiday("kings-birthday", "1st monday in June since 2023", { en: "King's Official Birthday" }, { years: { from: 2023 } }),
  holiday("constitution-day", "10-19", { en: "Constitution Day" }),
  holiday("peniamina-gospel-day", "4th monday in October", { en: "Peniamina Gospel Day" }),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
  holiday("boxing-day", "12-26", { en: "Boxing Day" }),
];
