import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const LAW =
  "Ligji nr. 7651, datë 21.12.1992 \"Për festat zyrtare dhe ditët përkujtimore\" (Albania's law on official holidays), as amended: the Beatification Day of Mother Teresa (19 October) was replaced by the Day of her Canonization (5 September, the day of her death in 1997; canonized in September 2016), a non-working day moved to Monday when it falls on a weekend. Read offline: the Bank of Albania's official holiday schedule for 2024 (as cited by Nager.Date's test) and press reports of 2024-2025 (open.al, noa.al) that the Council of Ministers amended the law; the amending act and its date were not read, so the change is applied from 2024, the first year an official list was read, and earlier years keep 19 October.";

const { add, remove } = correctionsOf("AL", LAW);

export const AL: Correction[] = [
  remove("mother-teresa-beatification-day-replaced", "10-19 and if saturday,sunday then next monday", { years: { from: 2024 } }),
  add(
    "mother-teresa-canonization-day",
    "09-05 and if saturday,sunday then next monday",
    { en: "Mother Teresa Canonization Day", sq: "Dita e Shenjtërimit të Nënë Terezës" },
    { substitute: true, years: { from: 2024 } },
  ),
];
