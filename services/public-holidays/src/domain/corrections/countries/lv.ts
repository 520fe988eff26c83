import type { Correction } from "../types.js";

const LAW =
  "Likums \"Par svētku, atceres un atzīmējamām dienām\" (Latvia's law on holidays, commemoration days and celebration days), as amended by the Saeima for the occasion; the amendments were not verified offline when this entry was written.";

function oneOff(id: string, date: string, en: string, lv: string, why: string): Correction {
  return { id: `LV-${id}`, country: "LV", action: "add", rule: date, name: { en, lv }, source: `${LAW} ${why}` };
}

export const LV: Correction[] = [
  oneOff("song-festival-2018-closing", "2018-07-08", "Song and Dance Celebration closing day", "Vispārējo latviešu Dziesmu un deju svētku noslēguma diena", "The closing day of the XXVI General Latvian Song and Dance Celebration, 8 July 2018, and the day after were public holidays."),
  oneOff("song-festival-2018-after", "2018-07-09", "Day after the Song and Dance Celebration", "Diena pēc Dziesmu un deju svētku noslēguma", "The day after the closing of the 2018 Song and Dance Celebration."),
  oneOff("song-festival-2023-closing", "2023-07-09", "Song and Dance Celebration closing day", "Vispārējo latviešu Dziesmu un deju svētku noslēguma diena", "The closing day of the XXVII General Latvian Song and Dance Celebration, 9 July 2023, and the day after were public holidays."),
  oneOff("song-festival-2023-after", "2023-07-10", "Day after the Song and Dance Celebration", "Diena pēc Dziesmu un deju svētku noslēguma", "The day after the closing of the 2023 Song and Dance Celebration."),
  oneOff("pope-francis-visit-2018", "2018-09-24", "Pope Francis's visit to Latvia", "Pāvesta Franciska vizīte Latvijā", "Monday 24 September 2018, the day of Pope Francis's visit, was a one-off public holiday."),
];
