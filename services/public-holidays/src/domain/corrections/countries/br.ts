import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const { nationwide } = correctionsOf(
  "BR",
  "Lei nº 14.759, de 21 de dezembro de 2023: 20 de novembro, Dia Nacional de Zumbi e da Consciência Negra, is a national holiday from 2024; the law's text was not re-read offline when this entry was written.",
);

export const BR: Correction[] = [
  nationwide("black-awareness-day-nationwide", "11-20", {
    years: { from: 2024 },
    note: "date-holidays lists the day nationally, but some states' data still switch it off, as they did before the law made it national.",
  }),
];
