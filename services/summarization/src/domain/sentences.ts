import type { Language, LanguageTools } from "./languages.js";
import { collapseWhitespace, cutIntoWindows } from "./text.js";

export interface SourceSentence {
  /** Position in the source, from 0. */
  index: number;
  text: string;
  /** Which paragraph (blocks separated by a blank line) it comes from, from 0. */
  paragraph: number;
}

/** Titles before a name: a dot after them never ends a sentence. */
const TITLES: Record<Language, string[]> = {
  en: ["mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "rev", "gen", "col", "lt", "sgt", "capt", "gov", "sen", "rep", "hon", "messrs", "mt", "ft"],
  es: ["sr", "sra", "srta", "dr", "dra", "d", "dña", "lic", "ing", "prof", "sto", "sta"],
  fr: ["m", "mm", "mme", "mmes", "mlle", "dr", "pr", "me", "st", "ste"],
  de: ["hr", "hrn", "fr", "dr", "prof", "st", "dipl", "ing"],
  pt: ["sr", "sra", "srta", "dr", "dra", "prof", "profa", "eng"],
  it: ["sig", "sigg", "sigra", "dott", "dottssa", "prof", "ing", "avv", "on", "s"],
  nl: ["dhr", "mevr", "mr", "dr", "prof", "ir", "drs", "ing", "st"],
  ru: ["г-н", "г-жа", "им", "св", "проф", "акад", "ген"],
  zh: [],
};

/** Abbreviations that may end a sentence: a dot after them ends one only when a stopword (The, Der, Le...) follows. */
const ABBREVIATIONS: Record<Language, string[]> = {
  en: [
    "etc",
    "inc",
    "ltd",
    "co",
    "corp",
    "vs",
    "approx",
    "no",
    "nos",
    "vol",
    "fig",
    "al",
    "e.g",
    "i.e",
    "jan",
    "feb",
    "mar",
    "apr",
    "jun",
    "jul",
    "aug",
    "sep",
    "sept",
    "oct",
    "nov",
    "dec",
    "est",
    "dept",
    "univ",
    "ave",
    "blvd",
    "p.m",
    "a.m",
  ],
  es: ["etc", "pág", "págs", "núm", "aprox", "av", "avda", "ej", "p.ej", "s.a", "ee.uu", "ud", "uds", "vol", "cía"],
  fr: ["etc", "cf", "env", "p.ex", "av", "bd", "n°", "vol", "c.-à-d", "hab", "réf"],
  de: ["bzw", "ca", "usw", "z.b", "d.h", "vgl", "nr", "str", "evtl", "ggf", "inkl", "u.a", "bspw", "jh", "mio", "mrd", "gmbh"],
  pt: ["etc", "pág", "núm", "aprox", "av", "ex", "p.ex", "s.a", "ltda", "vol", "cia"],
  it: ["ecc", "pag", "pagg", "num", "ca", "es", "p.es", "vol", "spa", "srl"],
  nl: ["enz", "bijv", "bv", "d.w.z", "o.a", "nr", "blz", "ca", "m.b.t", "t.a.v", "vs"],
  ru: ["т.е", "т.д", "т.п", "т.к", "г", "гг", "руб", "тыс", "млн", "млрд", "им", "ул", "д", "см", "др", "пр", "стр", "в", "вв"],
  zh: [],
};

const SENTENCE_SEGMENTERS = new Map<Language, Intl.Segmenter>();

function sentenceSegmenter(language: Language): Intl.Segmenter {
  let segmenter = SENTENCE_SEGMENTERS.get(language);
  if (!segmenter) {
    segmenter = new Intl.Segmenter(language, { granularity: "sentence" });
    SENTENCE_SEGMENTERS.set(language, segmenter);
  }
  return segmenter;
}

const TITLE_SETS = new Map<Language, Set<string>>(Object.entries(TITLES).map(([l, list]) => [l as Language, new Set(list)]));
const ABBREVIATION_SETS = new Map<Language, Set<string>>(Object.entries(ABBREVIATIONS).map(([l, list]) => [l as Language, new Set(list)]));

const LAST_WORD_WITH_DOT = /(?:^|[\s("'“‘«])([\p{L}\p{N}.°-]+)\.$/u;
const INITIAL = /^\p{Lu}$/u;
const ACRONYM = /^(?:\p{L}\.)+\p{L}$/u;
const ORDINAL = /^\p{N}+$/u;
const STARTS_LOWER = /^[\s"'“‘«(\[]*\p{Ll}/u;
const FIRST_WORD = /^[\s"'“‘«(\[]*([\p{L}]+)/u;

/** Split paragraphs on blank lines: they are hard boundaries that no rule below crosses. */
export function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t\u00a0]*\n+/)
    .map((block) => block.trim())
    .filter((block) => block.length > 0);
}

/**
 * Sentences of a text: Intl.Segmenter (ICU sentence rules: decimals, "?!", closing quotes) within each paragraph, then
 * rejoined where ICU broke after a dot that does not end a sentence: a title before a name (Dr. Smith), an initial
 * (John F. Kennedy), an acronym or abbreviation followed by a word that is not a stopword (the U.S. Army, but
 * "in the U.S. The"), a German ordinal (am 3. Oktober), or any break followed by a lower-case letter ("Stop." she said).
 */
export function splitSentences(text: string, tools: LanguageTools): SourceSentence[] {
  const found: SourceSentence[] = [];
  paragraphs(text).forEach((block, paragraph) => {
    for (const piece of joinFalseBreaks(icuSentences(block, tools.language), tools)) {
      const sentence = collapseWhitespace(piece);
      if (sentence) found.push({ index: found.length, text: sentence, paragraph });
    }
  });
  return found;
}

const WINDOW_CHARS = 3_000;
const LIKELY_SENTENCE_END = /[.!?]["'”’»)\]]*\s+|[。！？]["'”’»」』)\]]*/u;

/** Sentences as ICU finds them, whitespace kept (joinFalseBreaks glues pieces back together exactly). */
export function icuSentences(block: string, language: Language): string[] {
  const pieces: string[] = [];
  for (const window of cutIntoWindows(block, WINDOW_CHARS, LIKELY_SENTENCE_END)) {
    for (const segment of sentenceSegmenter(language).segment(window)) {
      if (segment.segment.trim()) pieces.push(segment.segment);
    }
  }
  return pieces;
}

function joinFalseBreaks(pieces: string[], tools: LanguageTools): string[] {
  if (tools.language === "zh") return pieces;
  // Groups of pieces joined once at the end: gluing strings one by one would copy long runs over and over.
  const groups: string[][] = [];
  for (const piece of pieces) {
    const group = groups.at(-1);
    if (group !== undefined && isFalseBreak(group.at(-1)!, piece, tools)) group.push(piece);
    else groups.push([piece]);
  }
  return groups.map((group) => group.join(""));
}

function isFalseBreak(before: string, after: string, tools: LanguageTools): boolean {
  if (STARTS_LOWER.test(after)) return true;
  const match = LAST_WORD_WITH_DOT.exec(before.slice(-120).trimEnd());
  if (!match) return false;
  const word = match[1]!;
  const lower = word.toLowerCase();
  if (TITLE_SETS.get(tools.language)!.has(lower)) return true;
  if (tools.language === "de" && ORDINAL.test(word)) return true;
  const abbreviation = INITIAL.test(word) || ACRONYM.test(word) || ABBREVIATION_SETS.get(tools.language)!.has(lower);
  if (!abbreviation) return false;
  const next = FIRST_WORD.exec(after)?.[1]?.toLowerCase();
  return next !== undefined && !tools.stopwords.has(next);
}

/**
 * A sentence that ends as Chinese and Japanese end them: a full-width stop, exclamation or question mark (or an
 * ellipsis after a Han or kana character), then any closing quotes or brackets. Those scripts put no space after it.
 */
const CJK_SENTENCE_END = /(?:[。！？｡．]|(?<=[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[…⋯]+)[”’"'」』）】〕〉》]*$/u;

/** Sentences joined as their language writes them: directly after a CJK sentence end, with a space otherwise. */
export function joinSentences(sentences: readonly string[]): string {
  let joined = "";
  for (const sentence of sentences) {
    if (joined && !CJK_SENTENCE_END.test(joined)) joined += " ";
    joined += sentence;
  }
  return joined;
}
