import type { Correction } from "../types.js";

export const US: Correction[] = [
  {
    id: "US-veterans-day-observed",
    country: "US",
    action: "remove",
    rule: "11-11",
    source: "5 U.S.C. 6103(b); Executive Order 11582",
    note: "Replaced by the rule with its observed day below: the engine has no observed day for Veterans Day.",
  },
  {
    id: "US-veterans-day-with-observed-day",
    country: "US",
    action: "add",
    rule: "11-11 and if sunday then next monday if saturday then previous friday",
    name: { en: "Veterans Day" },
    substitute: true,
    source:
      "5 U.S.C. 6103(a) (Veterans Day, November 11) and 6103(b) with Executive Order 11582 (a holiday on a Saturday is observed the Friday before, on a Sunday the Monday after); OPM federal holidays 2023: Friday, November 10.",
  },
];
