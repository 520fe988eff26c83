import type { AddedCountry, Correction } from "../types.js";
import { calendarOf } from "../added.js";

/** date-holidays has no calendar for Tuvalu: the whole calendar is served from here. */
export const TUVALU: AddedCountry = { code: "TV", timezone: "Pacific/Funafuti", languages: ["tvl", "en"] };

const holiday = calendarOf(
  "TV",
  "Transcribed from Nager.Date's Tuvalu provider (github.com/nager/Nager.Date, MIT, commit 39125fd8), which cites only Wikipedia's article on Tuvalu's public holidays and gives no validity years; no law of Tuvalu was read offline. Here the sovereign's birthday is served from 2023 only, as the King's: Nager.Date names it the King's in every year and the Queen's birthday of earlier years (its date and name) is not in its provider.",
);

export const TV: Correction[] = [
  holiday("new-years-day", "01-01", { en: "New Year's Day", tvl: "Tausaga Fou" }),
  holiday("commonwealth-day", "2nd monday in March", { en: "Commonwealth Day" }),
  holiday("good-friday", "easter -2", { en: "Good Friday" }),
  holiday("easter-monday", "easter 1", { en: "Easter Monday" }),
  holiday("gospel-day", "2nd monday in May", { en: "Gospel Day", tvl: "Te Aso o te Tala Lei" }),
  holiday(
    "kings-birthday",
    "2nd saturday in June since 2023",
    { en: "King's Official Birthday" },
    {
      years: { from: 2023 },
      note: "Nager.Date names it the second Saturday in June but computes the second Monday in May (Gospel Day); the named rule is served.",
    },
  ),
  holiday("childrens-day", "1st monday in August", { en: "National Children's Day", tvl: "Aso Tamaliki" }),
  holiday("tuvalu-day", "10-01", { en: "Tuvalu Day" }),
  holiday("tuvalu-day-holiday", "10-02", { en: "Tuvalu Day Holiday" }),
  holiday("christmas-day", "12-25", { en: "Christmas Day", tvl: "Kilisimasi" }),
  holiday("boxing-day", "12-26", { en: "Boxing Day" }),
];
