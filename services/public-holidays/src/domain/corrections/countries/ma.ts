import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const { add } = correctionsOf(
  "MA",
  "Communiqué of the Royal Cabinet of Morocco, 3 May 2023: King Mohammed VI made the Amazigh New Year (Id Yennayer, 14 January) an official paid public holiday, first observed on 14 January 2024; not verified offline when this entry was written.",
);

export const MA: Correction[] = [add("amazigh-new-year", "01-14", { en: "Amazigh New Year", ar: "رأس السنة الأمازيغية" }, { years: { from: 2024 } })];
