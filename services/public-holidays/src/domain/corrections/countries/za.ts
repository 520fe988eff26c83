import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const { add } = correctionsOf(
  "ZA",
  "Public Holidays Act 36 of 1994, s. 2(1): a public holiday falling on a Sunday is followed by a public holiday on the Monday; Christmas Day 2022 fell on a Sunday and Monday 26 December was already the Day of Goodwill, so Tuesday 27 December 2022 was a public holiday (as published by the South African Government, gov.za); not verified offline when this entry was written.",
);

export const ZA: Correction[] = [add("christmas-2022-observed", "2022-12-27", { en: "Christmas Day (observed)" })];
