import type { Correction } from "../types.js";

export const ZA: Correction[] = [
  {
    id: "ZA-christmas-2022-observed",
    country: "ZA",
    action: "add",
    rule: "2022-12-27",
    name: { en: "Christmas Day (observed)" },
    source:
      "Public Holidays Act 36 of 1994, s. 2(1): a public holiday falling on a Sunday is followed by a public holiday on the Monday; Christmas Day 2022 fell on a Sunday and Monday 26 December was already the Day of Goodwill, so Tuesday 27 December 2022 was a public holiday (as published by the South African Government, gov.za); not verified offline when this entry was written.",
  },
];
