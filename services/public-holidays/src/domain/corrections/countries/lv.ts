import type { Correction } from "../types.js";
import { correctionsOf } from "../build.js";

const LAW =
  'Likums "Par svētku, atceres un atzīmējamām dienām" (Latvia\'s law on holidays, commemoration days and celebration days), art. 1, as amended on 2 October 2014 (in force 22 October 2014): the closing day of the General Latvian Song and Dance Celebration is a holiday, and when it falls on a Saturday or Sunday the next working day is a day off (law text read in a municipal reproduction of the consolidated law; Saeima press release of 2 October 2014).';

const { add } = correctionsOf("LV", LAW);

function songCelebration(year: number, closingDay: string, dayAfter: string, dates: string): Correction[] {
  const source = { source: `${LAW} ${dates}` };
  return [
    add(
      `song-festival-${year}-closing`,
      closingDay,
      { en: "Song and Dance Celebration closing day", lv: "Vispārējo latviešu Dziesmu un deju svētku noslēguma diena" },
      source,
    ),
    add(`song-festival-${year}-after`, dayAfter, { en: "Day after the Song and Dance Celebration", lv: "Diena pēc Dziesmu un deju svētku noslēguma" }, source),
  ];
}

export const LV: Correction[] = [
  ...songCelebration(2018, "2018-07-08", "2018-07-09", "The XXVI Celebration closed on Sunday 8 July 2018, so Monday 9 July was a day off."),
  ...songCelebration(
    2023,
    "2023-07-09",
    "2023-07-10",
    "The XXVII Celebration (30 June - 9 July 2023) closed on Sunday 9 July, so Monday 10 July was a day off (notices of Latvian public bodies, e.g. Preiļu novada pašvaldība, read offline).",
  ),
  ...songCelebration(
    2028,
    "2028-07-09",
    "2028-07-10",
    "The XXVIII Celebration is planned for 30 June - 9 July 2028 by the Ministry of Culture's draft Cabinet order (reported 11 March 2026; the order itself was not read offline): it closes on Sunday 9 July, so Monday 10 July is a day off. Revise if the Cabinet fixes other dates.",
  ),
  add(
    "pope-francis-visit-2018",
    "2018-09-24",
    { en: "Pope Francis's visit to Latvia", lv: "Pāvesta Franciska vizīte Latvijā" },
    {
      source:
        'Likums "Par svētku, atceres un atzīmējamām dienām", as amended by the Saeima for the occasion: Monday 24 September 2018, the day of Pope Francis\'s visit, was a one-off public holiday; the amendment was not verified offline when this entry was written.',
    },
  ),
];
