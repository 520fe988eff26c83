const LETTER_FOLDS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
  ħ: "h",
};
const FOLDABLE_LETTERS = /[ßæœøłđðþıħ]/g;
const LATIN_DIACRITICS = /[\u0300-\u036f]/g;
const APOSTROPHES = /['’‘ʻʼ`´]/g;
const SEPARATORS = /[^\p{L}\p{M}\p{N}]+/gu;
/** Already in normal form: lower-case ASCII words separated by single spaces. */
const SIMPLE_ASCII = /^[a-z0-9]+(?: [a-z0-9]+)*$/;

/**
 * The folding rules, applied to one character (or, in tests, to a whole string):
 * lower case, Latin/Greek/Cyrillic diacritics dropped (São -> sao), a few letters
 * spelled out (ß -> ss, ø -> o), apostrophes dropped, any other non-letter a space.
 * The voicing marks of kana and the vowel signs of Indic scripts change the word, so they stay.
 */
function foldSlowly(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(LATIN_DIACRITICS, "")
    .toLowerCase()
    .replace(FOLDABLE_LETTERS, (letter) => LETTER_FOLDS[letter] ?? letter)
    .replace(APOSTROPHES, "")
    .replace(SEPARATORS, " ");
}

/** foldSlowly of every UTF-16 code unit outside the surrogates, computed once: the index folds a million names at start-up. */
const FOLDED_UNIT: string[] = (() => {
  const table = new Array<string>(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    table[code] = code >= 0xd800 && code <= 0xdfff ? "" : foldSlowly(String.fromCharCode(code));
  }
  return table;
})();

/**
 * Folds a place name to the form both the index and queries are compared in
 * (see foldSlowly), with runs of separators collapsed to one space and trimmed.
 */
export function normalizeName(text: string): string {
  const lower = text.toLowerCase();
  if (SIMPLE_ASCII.test(lower)) return lower;
  let folded = "";
  let pendingSpace = false;
  let beyondLatin1 = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const piece = code >= 0xd800 && code <= 0xdfff ? text[index] : FOLDED_UNIT[code];
    if (piece === " ") {
      pendingSpace = folded.length > 0;
      continue;
    }
    if (piece === "") continue;
    if (pendingSpace) {
      folded += " ";
      pendingSpace = false;
    }
    if (code >= 0x300) beyondLatin1 = true;
    folded += piece;
  }
  // Per-character folding can leave a kana and a separate voicing mark side by side.
  return beyondLatin1 ? folded.normalize("NFC") : folded;
}

/** Length in code points, so that a two-character Japanese name counts as two. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdbff) length++;
  }
  return length;
}

/** The first `count` code points. */
export function codePointPrefix(text: string, count: number): string {
  let started = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const continuesPair = code >= 0xdc00 && code <= 0xdfff;
    if (continuesPair) continue;
    if (started === count) return text.slice(0, index);
    started++;
  }
  return text;
}
