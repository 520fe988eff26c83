import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const LAW =
  "Codul muncii (Legea nr. 53/2003), art. 139(1), as amended in January 2023 to add 6 January (Boboteaza, Epiphany) and 7 January (Sfântul Ioan Botezătorul) as public holidays from 2024; the number of the amending law was not verified offline when this entry was written.";

const { remove } = correctionsOf("RO", LAW);

export const RO: Correction[] = [
  remove("epiphany-since-2024", "01-06", { years: { to: 2023 } }),
  remove("saint-john-since-2024", "01-07", { years: { to: 2023 } }),
];
