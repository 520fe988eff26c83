import type { Correction } from "../types.js";

/**
 * Easter Sunday is a public holiday only in the states and territories whose acts make it one, each from
 * its own year; date-holidays makes it national in every year (and only switches it off or on for NT, SA,
 * TAS and WA). The years are those of the public record (the same in Nager.Date); the state acts were not
 * read offline when these entries were written.
 */
const STATE_ACTS: Record<string, { from: number; act: string }> = {
  "AU-NSW": { from: 2010, act: "Public Holidays Act 2010 (NSW)" },
  "AU-ACT": { from: 2016, act: "Holidays Act 1958 (ACT), as amended for 2016" },
  "AU-VIC": { from: 2016, act: "Public Holidays Act 1993 (Vic), as amended by the Public Holidays Amendment Act 2015" },
  "AU-QLD": { from: 2017, act: "Holidays Act 1983 (Qld), as amended for 2017" },
  "AU-WA": { from: 2022, act: "Public and Bank Holidays Act 1972 (WA), as amended for 2022" },
  "AU-NT": { from: 2023, act: "Public Holidays Act 1981 (NT), as amended for 2023" },
  "AU-SA": { from: 2024, act: "Public Holidays Act 2023 (SA)" },
};

export const AU: Correction[] = [
  {
    id: "AU-easter-sunday-not-national",
    country: "AU",
    action: "remove",
    rule: "easter",
    source:
      "No Commonwealth law makes Easter Sunday a national public holiday: public holidays are set by each state and territory (Tasmania has none on Easter Sunday); the state entries below add it where and since when it is one.",
  },
  ...Object.entries(STATE_ACTS).map(
    ([subdivision, { from, act }]): Correction => ({
      id: `${subdivision}-easter-sunday`,
      country: "AU",
      action: "add",
      rule: "easter",
      name: { en: "Easter Sunday" },
      subdivisions: [subdivision],
      years: { from },
      source: `${act}: Easter Sunday is a public holiday from ${from}; the act's text was not read offline when this entry was written.`,
    }),
  ),
];
