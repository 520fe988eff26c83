import { createRequire } from "node:module";
import { stemmerOf } from "@apiplat/stemming";
import { franc } from "franc-min";

/** The languages the service summarizes: ISO 639-1 codes. */
export const LANGUAGES = ["en", "es", "fr", "de", "pt", "it", "nl", "ru", "zh"] as const;
export type Language = (typeof LANGUAGES)[number];

const SNOWBALL_NAME: Record<Exclude<Language, "zh">, string> = {
  en: "english",
  es: "spanish",
  fr: "french",
  de: "german",
  pt: "portuguese",
  it: "italian",
  nl: "dutch",
  ru: "russian",
};

/** franc answers ISO 639-3 codes; Chinese is "cmn" (Mandarin). */
const FROM_ISO_639_3: Record<string, Language> = {
  eng: "en",
  spa: "es",
  fra: "fr",
  deu: "de",
  por: "pt",
  ita: "it",
  nld: "nl",
  rus: "ru",
  cmn: "zh",
};

const require = createRequire(import.meta.url);
const STOPWORDS_ISO = require("stopwords-iso/stopwords-iso.json") as Record<string, string[]>;

export interface LanguageTools {
  language: Language;
  stopwords: ReadonlySet<string>;
  /** Lower-cased word -> stem (identity for Chinese, which has no inflection to strip). */
  stem(word: string): string;
}

function buildTools(language: Language): LanguageTools {
  const stopwords = new Set(STOPWORDS_ISO[language]);
  return { language, stopwords, stem: language === "zh" ? (word) => word : stemmerOf(SNOWBALL_NAME[language]) };
}

const TOOLS = new Map<Language, LanguageTools>(LANGUAGES.map((language) => [language, buildTools(language)]));

export function toolsFor(language: Language): LanguageTools {
  return TOOLS.get(language)!;
}

/** How much text the detector reads: trigram statistics settle long before that. */
const DETECTION_SAMPLE_CHARS = 1_000;
const HAN = /\p{Script=Han}/gu;
const CYRILLIC = /\p{Script=Cyrillic}/gu;
const LETTER = /\p{L}/gu;

/**
 * The language of a text, among the nine served: a script test first (Han or Cyrillic letters make up most of the
 * letters: Chinese or Russian), then franc's trigram model limited to the seven Latin-script languages. Text too
 * short for franc (under 10 letters) counts as English.
 */
export function detectLanguage(text: string): Language {
  const sample = text.slice(0, DETECTION_SAMPLE_CHARS);
  const letters = sample.match(LETTER)?.length ?? 0;
  if (letters === 0) return "en";
  if ((sample.match(HAN)?.length ?? 0) / letters > 0.3) return "zh";
  if ((sample.match(CYRILLIC)?.length ?? 0) / letters > 0.5) return "ru";
  const code = franc(sample, { only: ["eng", "spa", "fra", "deu", "por", "ita", "nld"], minLength: 10 });
  return FROM_ISO_639_3[code] ?? "en";
}
