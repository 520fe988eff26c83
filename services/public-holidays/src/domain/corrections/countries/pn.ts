import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for the Pitcairn Islands: the whole calendar is served from here. */
export const PITCAIRN_ISLANDS: AddedCountry = { code: "PN", timezone: "Pacific/Pitcairn", languages: ["en"] };

const holiday = calendarOf(
  "PN",
  "Transcribed from Nager.Date's Pitcairn Islands provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on the Pitcairn Islands' public holidays and gives no validity years; no law of the Pitcairn Islands was read offline. Here the sovereign's birthday is served from 2023 only, as the King's: Nager.Date names it the King's in every year and the Queen's birthday of earlier years (its date and name) is not in its provider.",
);

export const PN: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day" }),
  holiday("bounty-day", "01-23", { en: "Bounty Day" }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("easter-monday", "easter 1", { en: "Easter Monday" }),
  holiday(
    "kings-birthday",
    "2nd saturday in June since 2023",
    { en: "King's Official Birthday" },
    { years: { from: 2023 }, note: "Nager.Date names it the second Saturday in June but computes the second Monday in May; the named rule is served." },
  ),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
  holiday("boxing-day", "12-26", { en: "Boxing Day" }),
];
