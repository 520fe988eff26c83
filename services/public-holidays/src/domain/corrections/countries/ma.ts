import type { Correction } from "../types.js";

export const MA: Correction[] = [
  {
    id: "MA-amazigh-new-year",
    country: "MA",
    action: "add",
    rule: "01-14",
    name: { en: "Amazigh New Year", ar: "رأس السنة الأمازيغية" },
    years: { from: 2024 },
    source:
      "Communiqué of the Royal Cabinet of Morocco, 3 May 2023: King Mohammed VI made the Amazigh New Year (Id Yennayer, 14 January) an official paid public holiday, first observed on 14 January 2024; not verified offline when this entry was written.",
  },
];
