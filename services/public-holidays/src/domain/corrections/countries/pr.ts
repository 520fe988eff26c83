import type { Correction } from "../types.js";

export const PR: Correction[] = [
  {
    id: "PR-good-friday",
    country: "PR",
    action: "add",
    rule: "easter -2",
    name: { en: "Good Friday", es: "Viernes Santo" },
    source:
      "Ley de días feriados de Puerto Rico, 1 L.P.R.A. § 71 (Viernes Santo is a legal holiday of the Commonwealth); not verified offline when this entry was written.",
    note: "date-holidays lists the federal and Commonwealth holidays of Puerto Rico but not Good Friday.",
  },
];
