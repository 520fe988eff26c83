import type { Correction } from "../types.js";

const LAW =
  "Codul muncii (Legea nr. 53/2003), art. 139(1), as amended in January 2023 to add 6 January (Boboteaza, Epiphany) and 7 January (Sfântul Ioan Botezătorul) as public holidays from 2024; the number of the amending law was not verified offline when this entry was written.";

export const RO: Correction[] = [
  { id: "RO-epiphany-since-2024", country: "RO", action: "remove", rule: "01-06", years: { to: 2023 }, source: LAW },
  { id: "RO-saint-john-since-2024", country: "RO", action: "remove", rule: "01-07", years: { to: 2023 }, source: LAW },
];
