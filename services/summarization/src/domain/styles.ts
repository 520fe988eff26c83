import type { Language } from "./languages.js";

export const STYLES = ["formal", "casual", "technical"] as const;
export type Style = (typeof STYLES)[number];

const QUESTION_OR_EXCLAMATION = /[?!？！]["'”’»)]*$/u;
const PERSONAL_PRONOUN_EN = /\b(?:I|me|my|mine|we|us|our|ours|you|your|yours)\b/iu;
const DIGIT = /\p{Nd}/u;
const TECHNICAL_TOKEN =
  /\b\p{Lu}{2,6}s?\b|\b\w+_\w+|\b\w+\(\)|\b[a-z]+[A-Z]\w*|\b\d+(?:\.\d+)?\s?(?:%|ms|s|kb|mb|gb|tb|ghz|mhz|hz|km|kg|mm|cm|nm|°c|v|w|kw|mw)\b/u;
const WORDS_BEFORE_CASUAL_PENALTY = 20;

/**
 * How a style weighs a sentence before selection (a factor on its score):
 * - formal: questions, exclamations and (English) sentences in the first or second person count half;
 * - casual: sentences past 20 words lose weight in proportion (a 40-word sentence counts half);
 * - technical: a sentence with a digit counts 1.5 times, and 1.25 times more with an acronym, identifier or unit.
 */
export function styleWeight(sentence: string, words: number, style: Style | undefined, language: Language): number {
  switch (style) {
    case "formal": {
      const personal = language === "en" && PERSONAL_PRONOUN_EN.test(sentence);
      return QUESTION_OR_EXCLAMATION.test(sentence) || personal ? 0.5 : 1;
    }
    case "casual":
      return 1 / (1 + Math.max(0, words - WORDS_BEFORE_CASUAL_PENALTY) / WORDS_BEFORE_CASUAL_PENALTY);
    case "technical":
      return (DIGIT.test(sentence) ? 1.5 : 1) * (TECHNICAL_TOKEN.test(sentence) ? 1.25 : 1);
    default:
      return 1;
  }
}

/** English contractions with one reading only: 's and 'd (is/has, had/would) are left as written. */
const CONTRACTIONS: [RegExp, string][] = [
  [/\b(c)an['’]t\b/giu, "$1annot"],
  [/\b(w)on['’]t\b/giu, "$1ill not"],
  [/\b(s)han['’]t\b/giu, "$1hall not"],
  [/\b(l)et['’]s\b/giu, "$1et us"],
  [/\b(\w+)n['’]t\b/giu, "$1 not"],
  [/\b(\w+)['’]re\b/giu, "$1 are"],
  [/\b(\w+)['’]ve\b/giu, "$1 have"],
  [/\b(\w+)['’]ll\b/giu, "$1 will"],
  [/\b(I)['’]m\b/gu, "$1 am"],
];

// A match starts only where a run of spaces starts (the lookbehind), so a long run costs linear time.
const PARENTHETICAL = /(?<!\s)\s*(?:\([^()]{0,200}\)|\[[^[\]]{0,200}\])/gu;
const SPACE_BEFORE_PUNCTUATION = /(?<!\s)\s+([,.;:!?])/gu;

/**
 * How a style rewrites a chosen sentence, with words of the sentence only:
 * - formal: English contractions are spelled out (don't -> do not, can't -> cannot, we're -> we are);
 * - casual: parenthetical asides and bracketed references, "(...)" and "[...]", are dropped;
 * - technical and no style: the sentence as written.
 */
export function restyle(sentence: string, style: Style | undefined, language: Language): string {
  if (style === "formal" && language === "en") {
    return CONTRACTIONS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), sentence);
  }
  if (style === "casual") {
    const stripped = sentence.replace(PARENTHETICAL, "").replace(SPACE_BEFORE_PUNCTUATION, "$1").trim();
    return stripped || sentence;
  }
  return sentence;
}
