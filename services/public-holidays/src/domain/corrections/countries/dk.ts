import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const SOURCE =
  'Danmarks Nationalbank, "Banklukkedage" (nationalbanken.dk): 5 June (Grundlovsdag) is a bank closing day on which Nationalbanken and banks in general are closed (lists for 2026 and 2027 read offline; the Danish Bankers Association\'s list for 2006 gives the same day). Not a public holiday: shops close by law (lukkeloven), work goes on unless agreed otherwise.';

const { add, remove } = correctionsOf("DK", SOURCE);

/** date-holidays has Constitution Day as a mere observance; banks close on it, so its type is bank. */
export const DK: Correction[] = [
  remove("constitution-day-observance", "06-05"),
  add("constitution-day-bank-holiday", "06-05", { en: "Constitution Day", da: "Grundlovsdag" }, { type: "bank" }),
];
