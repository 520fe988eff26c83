import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const LAW =
  'Zákon č. 241/1993 Z. z. o štátnych sviatkoch, dňoch pracovného pokoja a pamätných dňoch, as amended by the 2024 consolidation act: Constitution Day (1 September) stopped being a day of rest from 2025, not 2024; Slovak Ministry of Foreign Affairs, mzv.sk "Public holidays"; the amending act\'s number was not verified offline when this entry was written.';

const { add, remove } = correctionsOf("SK", LAW);

export const SK: Correction[] = [
  remove("constitution-day-2024-observance", "09-01 since 2024", {
    years: { to: 2024 },
    note: "date-holidays makes 1 September a mere observance from 2024, a year early.",
  }),
  add("constitution-day-2024-public", "09-01", { en: "Constitution Day", sk: "Deň Ústavy Slovenskej republiky" }, { years: { from: 2024, to: 2024 } }),
];
