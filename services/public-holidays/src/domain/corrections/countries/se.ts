import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const LAW =
  "Lag (1989:253) om allmänna helgdagar, as amended in 2004: from 2005 the National Day, 6 June, is a public holiday and Whit Monday (annandag pingst) no longer is; the amending act's number was not verified offline when this entry was written.";

const { add, remove } = correctionsOf("SE", LAW);

export const SE: Correction[] = [
  remove("whit-monday-observance-before-2005", "easter 50", {
    years: { to: 2004 },
    note: "date-holidays lists Whit Monday as a mere observance in every year; until 2004 it was a public holiday (below).",
  }),
  add("whit-monday-until-2004", "easter 50", { en: "Whit Monday", sv: "Annandag pingst" }, { years: { to: 2004 } }),
];
