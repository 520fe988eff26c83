import type { Correction } from "../types.js";

const LAW =
  'Zákon č. 241/1993 Z. z. o štátnych sviatkoch, dňoch pracovného pokoja a pamätných dňoch, as amended by the 2024 consolidation act: Constitution Day (1 September) stopped being a day of rest from 2025, not 2024; Slovak Ministry of Foreign Affairs, mzv.sk "Public holidays"; the amending act\'s number was not verified offline when this entry was written.';

export const SK: Correction[] = [
  {
    id: "SK-constitution-day-2024-observance",
    country: "SK",
    action: "remove",
    rule: "09-01 since 2024",
    years: { to: 2024 },
    source: LAW,
    note: "date-holidays makes 1 September a mere observance from 2024, a year early.",
  },
  {
    id: "SK-constitution-day-2024-public",
    country: "SK",
    action: "add",
    rule: "09-01",
    name: { en: "Constitution Day", sk: "Deň Ústavy Slovenskej republiky" },
    years: { from: 2024, to: 2024 },
    source: LAW,
  },
];
