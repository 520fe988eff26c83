import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Nauru: the whole calendar is served from here. */
export const NAURU: AddedCountry = { code: "NR", timezone: "Pacific/Nauru", languages: ["en"] };

const holiday = calendarOf(
  "NR",
  "Transcribed from Nager.Date's Nauru provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on Nauru's public holidays and gives no validity years; no law of Nauru was read offline.",
);

export const NR: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day" }),
  holiday("independence-day", "01-31", { en: "Independence Day" }),
  holiday("womens-day", "03-08", { en: "International Women's Day" }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("easter-monday", "easter 1", { en: "Easter Monday" }),
  holiday("easter-tuesday", "easter 2", { en: "Easter Tuesday" }),
  holiday("constitution-day", "05-17", { en: "Constitution Day" }),
  holiday("ronphos-handover-day", "07-01", { en: "RONPhos Handover Day" }),
  holiday("ibumin-earoeni-day", "08-19", { en: "Ibumin Earoeni Day" }),
  holiday("hammer-deroburt-day", "09-25", { en: "Sir Hammer DeRoburt Day" }),
  holiday("angam-day", "10-26", { en: "Angam Day" }),
  holiday("christmas-day", "12-25", { en: "Christmas Day" }),
  holiday("boxing-day", "12-26", { en: "Boxing Day" }),
];
