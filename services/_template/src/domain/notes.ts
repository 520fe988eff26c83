/** Pure logic: no HTTP, no SQL, no clock, no randomness passed in implicitly. */

export const TITLE_MAX_LENGTH = 200;
export const BODY_MAX_LENGTH = 10_000;

/** Words as a reader counts them, in any script (Intl.Segmenter's word boundaries). */
export function countWords(text: string): number {
  let words = 0;
  for (const segment of new Intl.Segmenter("en", { granularity: "word" }).segment(text)) {
    if (segment.isWordLike) words++;
  }
  return words;
}

/** Runs of white space become one space; the ends are trimmed. */
export function normalizeTitle(title: string): string {
  return title.replace(/\s+/g, " ").trim();
}
