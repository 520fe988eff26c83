import { segmentsOf } from "./segments.js";

export const DEFAULT_WORDS_PER_MINUTE = 238;

/** Abbreviations after which a full stop does not end a sentence (lower-cased, without the final dot). */
const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "prof",
  "sr",
  "jr",
  "st",
  "mt",
  "vs",
  "etc",
  "e.g",
  "i.e",
  "cf",
  "al",
  "approx",
  "inc",
  "ltd",
  "co",
  "corp",
  "no",
  "nos",
  "fig",
  "figs",
  "vol",
  "p",
  "pp",
  "ch",
  "sec",
  "dept",
  "est",
  "a.m",
  "p.m",
  "u.s",
  "u.k",
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
  "gen",
  "gov",
  "sen",
  "rep",
  "rev",
  "capt",
  "lt",
  "col",
]);

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
const wordSegmenter = new Intl.Segmenter("en", { granularity: "word" });
const sentenceSegmenter = new Intl.Segmenter("en", { granularity: "sentence" });

interface TextCounts {
  characters: number;
  characters_excluding_spaces: number;
  words: number;
  lines: number;
  sentences: number;
  paragraphs: number;
  reading_time_seconds: number;
  reading_time_minutes: number;
  words_per_minute: number;
}

function countGraphemes(text: string): number {
  let n = 0;
  for (const _ of segmentsOf(graphemes, text)) n++;
  return n;
}

function countWords(text: string): number {
  let n = 0;
  for (const segment of segmentsOf(wordSegmenter, text)) if (segment.isWordLike) n++;
  return n;
}

/** Lines as an editor shows them: a final line break does not start a new line; empty text has none. */
function countLines(text: string): number {
  if (text === "") return 0;
  return text.replace(/(\r\n|\r|\n)$/, "").split(/\r\n|\r|\n/).length;
}

function endsWithAbbreviation(sentence: string): boolean {
  const last = sentence.trimEnd().match(/(?<!\S)(\S+)\.$/);
  if (!last) return false;
  const word = last[1].toLowerCase().replace(/^[("'“‘]+/, "");
  // A lone initial ("J. R. R. Tolkien") does not end a sentence either.
  return ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word);
}

/** Unicode sentence boundaries, then joined back where the break followed an abbreviation or initial. */
function countSentences(text: string): number {
  let count = 0;
  let carry = false;
  for (const { segment } of segmentsOf(sentenceSegmenter, text)) {
    if (!/[\p{L}\p{N}]/u.test(segment)) continue;
    if (!carry) count++;
    carry = endsWithAbbreviation(segment);
  }
  return count;
}

function countParagraphs(text: string): number {
  return text.split(/(?:\r?\n|\r)\s*(?:\r?\n|\r)/).filter((p) => p.trim() !== "").length;
}

export function countText(text: string, wordsPerMinute: number = DEFAULT_WORDS_PER_MINUTE): TextCounts {
  const normalized = text.normalize("NFC");
  const words = countWords(normalized);
  const seconds = Math.round((words / wordsPerMinute) * 60);
  return {
    characters: countGraphemes(normalized),
    characters_excluding_spaces: countGraphemes(normalized.replace(/\s+/gu, "")),
    words,
    lines: countLines(normalized),
    sentences: countSentences(normalized),
    paragraphs: countParagraphs(normalized),
    reading_time_seconds: seconds,
    reading_time_minutes: words === 0 ? 0 : Math.max(1, Math.ceil(seconds / 60)),
    words_per_minute: wordsPerMinute,
  };
}
