import type { Correction } from "../types.js";

const BANK_HOLIDAYS =
  'Bank Holidays Act 1989 (Isle of Man) and the bank holidays appointed under it, as published by the Isle of Man Government (gov.im, "Bank holidays"); not verified offline when this entry was written.';

export const IM: Correction[] = [
  {
    id: "IM-late-summer-bank-holiday",
    country: "IM",
    action: "add",
    rule: "monday before 09-01",
    name: { en: "Late Summer Bank Holiday" },
    source: `${BANK_HOLIDAYS} The last Monday in August is a bank holiday in the Isle of Man as in England.`,
    note: "date-holidays has no summer bank holiday for the Isle of Man at all.",
  },
  {
    id: "IM-tynwald-day-weekend",
    country: "IM",
    action: "remove",
    rule: "07-05",
    source: "Tynwald Day: replaced by the rule with its weekend move below.",
  },
  {
    id: "IM-tynwald-day",
    country: "IM",
    action: "add",
    rule: "07-05 if saturday,sunday then next monday",
    name: { en: "Tynwald Day" },
    source: `${BANK_HOLIDAYS} Tynwald Day is 5 July; when it falls on a Saturday or Sunday the sitting on Tynwald Hill and the holiday are on the Monday after (6 July 2015, 6 July 2020).`,
  },
  {
    id: "IM-tt-senior-race-day-2019",
    country: "IM",
    action: "remove",
    rule: "2nd friday in June",
    years: { from: 2019, to: 2019 },
    source: `${BANK_HOLIDAYS} The TT Senior Race Day holiday is the Friday of race week, which in 2019 was the first Friday in June (7 June), not the second.`,
  },
  {
    id: "IM-tt-senior-race-day-2019-date",
    country: "IM",
    action: "add",
    rule: "2019-06-07",
    name: { en: "Tourist Trophy, Senior Race Day" },
    source: `${BANK_HOLIDAYS} Senior TT race day 2019: Friday 7 June.`,
  },
  {
    id: "IM-tt-2020-cancelled",
    country: "IM",
    action: "remove",
    rule: "2nd friday in June",
    years: { from: 2020, to: 2020 },
    source: `${BANK_HOLIDAYS} The 2020 TT races were cancelled (COVID-19) and the Senior Race Day bank holiday of 12 June 2020 was moved to 28 August 2020.`,
  },
  {
    id: "IM-tt-2020-moved-to-august",
    country: "IM",
    action: "add",
    rule: "2020-08-28",
    name: { en: "Bank holiday (moved from TT Senior Race Day)" },
    source: `${BANK_HOLIDAYS} The 2020 TT Senior Race Day bank holiday moved to Friday 28 August 2020.`,
  },
];
