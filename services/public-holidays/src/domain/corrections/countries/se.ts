import type { Correction } from "../types.js";

const LAW =
  "Lag (1989:253) om allmänna helgdagar, as amended in 2004: from 2005 the National Day, 6 June, is a public holiday and Whit Monday (annandag pingst) no longer is; the amending act's number was not verified offline when this entry was written.";

export const SE: Correction[] = [
  {
    id: "SE-whit-monday-observance-before-2005",
    country: "SE",
    action: "remove",
    rule: "easter 50",
    years: { to: 2004 },
    source: LAW,
    note: "date-holidays lists Whit Monday as a mere observance in every year; until 2004 it was a public holiday (below).",
  },
  {
    id: "SE-whit-monday-until-2004",
    country: "SE",
    action: "add",
    rule: "easter 50",
    name: { en: "Whit Monday", sv: "Annandag pingst" },
    years: { to: 2004 },
    source: LAW,
  },
];
