import type { Correction } from "../types.js";

const SOURCE =
  'Danmarks Nationalbank, "Banklukkedage" (nationalbanken.dk): 5 June (Grundlovsdag) is a bank closing day on which Nationalbanken and banks in general are closed (lists for 2026 and 2027 read offline; the Danish Bankers Association\'s list for 2006 gives the same day). Not a public holiday: shops close by law (lukkeloven), work goes on unless agreed otherwise.';

/** date-holidays has Constitution Day as a mere observance; banks close on it, so its type is bank. */
export const DK: Correction[] = [
  { id: "DK-constitution-day-observance", country: "DK", action: "remove", rule: "06-05", source: SOURCE },
  {
    id: "DK-constitution-day-bank-holiday",
    country: "DK",
    action: "add",
    rule: "06-05",
    name: { en: "Constitution Day", da: "Grundlovsdag" },
    type: "bank",
    source: SOURCE,
  },
];
