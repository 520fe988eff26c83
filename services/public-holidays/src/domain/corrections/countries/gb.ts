import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const { add } = correctionsOf(
  "GB",
  "Scottish Government, \"World Cup bank holiday confirmed\" (https://www.gov.scot/news/world-cup-bank-holiday-confirmed): a one-off bank holiday in Scotland on Monday 15 June 2026 for Scotland's part in the men's football World Cup finals; the page was not read offline when this entry was written (the reference is the one Nager.Date cites).",
);

export const GB: Correction[] = [add("SCT-world-cup-2026", "2026-06-15", { en: "World Cup Bank Holiday" }, { subdivisions: ["GB-SCT"] })];
