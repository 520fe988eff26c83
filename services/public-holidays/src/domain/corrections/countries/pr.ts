import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const { add } = correctionsOf(
  "PR",
  "Ley de días feriados de Puerto Rico, 1 L.P.R.A. § 71 (Viernes Santo is a legal holiday of the Commonwealth); not verified offline when this entry was written.",
);

export const PR: Correction[] = [
  add(
    "good-friday",
    "easter -2",
    { en: "Good Friday", es: "Viernes Santo" },
    { note: "date-holidays lists the federal and Commonwealth holidays of Puerto Rico but not Good Friday." },
  ),
];
