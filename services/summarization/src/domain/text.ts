import type { Language, LanguageTools } from "./languages.js";

/**
 * Intl.Segmenter (ICU) slows down with the length of the string times the number of segments it hands out: 3 s for
 * 100 KB of words, 33 s for 200 KB. So it only ever reads windows of a few thousand characters, cut at a boundary.
 */
export function cutIntoWindows(text: string, size: number, boundary: RegExp): string[] {
  const windows: string[] = [];
  let start = 0;
  while (text.length - start > 2 * size) {
    // Look for a boundary between size and 2 x size characters on; without one, cut at 2 x size.
    const match = boundary.exec(text.slice(start + size, start + 2 * size));
    let cut = match ? start + size + match.index + match[0].length : start + 2 * size;
    if (isLowSurrogate(text.charCodeAt(cut))) cut -= 1;
    windows.push(text.slice(start, cut));
    start = cut;
  }
  windows.push(text.slice(start));
  return windows;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

const WORD_WINDOW_CHARS = 1_000;
const WORD_BOUNDARY = /[\s，。！？、；：,.;:!?]/u;
const ZH_WORDS = new Intl.Segmenter("zh", { granularity: "word" });

/**
 * A word in a space-delimited language: letters and digits, with inner apostrophes, dots, commas between digits and
 * hyphens (don't, U.S, 4.2, 30,000, state-run), as Intl.Segmenter's word-like segments are, at a fraction of the cost.
 * WORD below is the same pattern without the marks.
 */
const WORD_OR_MARK = /([\p{L}\p{M}\p{N}]+(?:['’.,\-][\p{L}\p{M}\p{N}]+)*)|[^\s\p{L}\p{M}\p{N}]/gu;
const BLANK = /^\s+$/u;
const HAN_CHAR = /\p{Script=Han}/gu;

export interface Token {
  text: string;
  /** Offset in the text. */
  index: number;
  /** A word, or else a punctuation mark or symbol (whitespace is never a token). */
  word: boolean;
}

/** Words and marks in order: the WORD_OR_MARK pattern, or Intl.Segmenter's dictionary words for Chinese. */
export function* tokens(text: string, language: Language): Generator<Token> {
  if (language !== "zh") {
    for (const match of text.matchAll(WORD_OR_MARK)) yield { text: match[0], index: match.index, word: match[1] !== undefined };
    return;
  }
  let offset = 0;
  for (const window of cutIntoWindows(text, WORD_WINDOW_CHARS, WORD_BOUNDARY)) {
    for (const segment of ZH_WORDS.segment(window)) {
      if (segment.isWordLike) yield { text: segment.segment, index: offset + segment.index, word: true };
      else if (!BLANK.test(segment.segment)) yield { text: segment.segment, index: offset + segment.index, word: false };
    }
    offset += window.length;
  }
}

/** Measured over the 100 CNN/DailyMail articles of the ROUGE sample (docs/performance/summarization.md): 78,685 tokens for 68,078 words. */
export const TOKENS_PER_ENGLISH_WORD = 1.16;

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’.,\-][\p{L}\p{M}\p{N}]+)*/gu;

export function words(text: string, language: Language): string[] {
  if (language !== "zh") return text.match(WORD) ?? [];
  const found: string[] = [];
  for (const token of tokens(text, language)) if (token.word) found.push(token.text);
  return found;
}

export function countWords(text: string, language: Language): number {
  if (language !== "zh") return text.match(WORD)?.length ?? 0;
  let count = 0;
  for (const token of tokens(text, language)) if (token.word) count += 1;
  return count;
}

/**
 * Tokens as the limits count them: one per word and one per punctuation mark or symbol, except that Chinese counts
 * one token per Han character (subword tokenizers spend about that much). See TOKENS_PER_ENGLISH_WORD.
 */
export function countTokens(text: string, language: Language): number {
  if (language !== "zh") return text.match(WORD_OR_MARK)?.length ?? 0;
  // Every Han character is a token whatever word it belongs to, so Chinese needs no dictionary here (linear time).
  const han = text.match(HAN_CHAR)?.length ?? 0;
  return han + (text.replace(HAN_CHAR, " ").match(WORD_OR_MARK)?.length ?? 0);
}

/** Content terms of a list of words: lower-cased, stemmed, without stopwords, numbers and single letters. */
export function contentTerms(wordList: readonly string[], tools: LanguageTools): string[] {
  const terms: string[] = [];
  for (const original of wordList) {
    const word = original.toLowerCase();
    if (!isContentWord(word, tools)) continue;
    terms.push(tools.stem(word));
  }
  return terms;
}

const NUMBER = /^[\p{N}.,]+$/u;

/** Longer "words" are strings of junk (hashes, base64, a held key); stemming them would cost more than it tells. */
const MAX_TERM_CHARS = 50;

/** Not a stopword, a number, a run of junk or (outside Chinese) a single letter. Takes the word lower-cased. */
export function isContentWord(word: string, tools: LanguageTools): boolean {
  if (word.length > MAX_TERM_CHARS || (word.length < 2 && tools.language !== "zh")) return false;
  return !tools.stopwords.has(word) && !NUMBER.test(word);
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}
