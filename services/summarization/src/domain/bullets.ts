import type { Language } from "./languages.js";

/** Connectives that open a sentence by pointing at the one before it; a takeaway stands alone without them. */
const LEADING_CONNECTIVES: Record<Language, string[]> = {
  en: [
    "however",
    "but",
    "and",
    "also",
    "moreover",
    "furthermore",
    "in addition",
    "additionally",
    "meanwhile",
    "so",
    "still",
    "yet",
    "besides",
    "then",
    "therefore",
    "thus",
    "instead",
    "nevertheless",
    "as a result",
    "in fact",
    "indeed",
    "of course",
  ],
  es: ["sin embargo", "pero", "y", "además", "también", "mientras tanto", "por lo tanto", "así", "entonces", "no obstante", "de hecho"],
  fr: ["cependant", "mais", "et", "de plus", "en outre", "aussi", "pourtant", "toutefois", "par ailleurs", "ainsi", "donc", "en effet"],
  de: ["aber", "und", "außerdem", "jedoch", "auch", "dennoch", "allerdings", "zudem", "deshalb", "also", "trotzdem"],
  pt: ["porém", "mas", "e", "além disso", "também", "no entanto", "entretanto", "assim", "portanto", "contudo"],
  it: ["tuttavia", "ma", "e", "inoltre", "anche", "però", "quindi", "dunque", "comunque", "infatti"],
  nl: ["maar", "en", "bovendien", "echter", "ook", "daarnaast", "toch", "dus", "verder", "intussen"],
  ru: ["однако", "но", "и", "кроме того", "также", "тем не менее", "поэтому", "а", "впрочем", "итак"],
  zh: ["但是", "而且", "此外", "然而", "另外", "因此", "所以", "不过", "同时"],
};

const PATTERNS = new Map<Language, RegExp>(
  (Object.entries(LEADING_CONNECTIVES) as [Language, string[]][]).map(([language, list]) => {
    const alternatives = [...list]
      .sort((a, b) => b.length - a.length)
      .map(escape)
      .join("|");
    const tail = language === "zh" ? "[，,]?" : "(?:\\s*,\\s*|\\s+)";
    const head = language === "zh" ? "" : "(?<![\\p{L}])";
    return [language, new RegExp(`^${head}(?:${alternatives})${tail}`, "iu")];
  }),
);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** "However, the plan failed." -> "The plan failed.": the connective is dropped and the new first letter capitalized. */
export function trimLeadingConnective(sentence: string, language: Language): string {
  const match = PATTERNS.get(language)!.exec(sentence);
  if (!match || match[0].length >= sentence.length) return sentence;
  const rest = sentence.slice(match[0].length);
  return rest.charAt(0).toLocaleUpperCase(language) + rest.slice(1);
}
