/**
 * pg_trgm's `similarity(a, b)` and `word_similarity(a, b)` (hence `%` and `<%`) as PostgreSQL 15 computes them
 * (contrib/pg_trgm/trgm_op.c: generate_trgm, make_trigrams, cnt_sml, calc_word_similarity,
 * iterate_word_similarity), in a UTF-8 database whose LC_CTYPE is not plain C (C.UTF-8, en_US.UTF-8): the same
 * float4 values, so that a search held in memory (company-data's names, the catalogues' typo correction) scores
 * exactly as the SQL did.
 *
 * A trigram is three characters of a word padded with two spaces before and one after ("  a", " ap", ..., "le ").
 * Three one-byte characters are kept as their bytes; any other trigram is reduced, as pg_trgm does, to three bytes
 * of the legacy CRC-32 of its UTF-8 bytes. Two different trigrams can therefore share a value (pg_trgm counts them
 * as one); the same happens here, since the hash is pg_trgm's own, byte for byte (read on a little-endian machine,
 * which PostgreSQL on x86-64 and ARM64 is).
 *
 * Where this can differ from PostgreSQL: which non-ASCII characters are letters, and their lower case. pg_trgm asks
 * the C library (iswalpha, towlower of the database's LC_CTYPE); this asks Unicode (letters and decimal digits, the
 * simple lower case of each character). The company name keys (src/domain/names.ts) are already lower case, accents
 * stripped, so only letters of other scripts reach here, which both classify alike. A database whose LC_CTYPE is
 * C or POSIX (not C.UTF-8) would differ: there pg_trgm treats every non-ASCII character as a separator.
 */

/** A trigram as pg_trgm stores it: three bytes, here as the integer byte0 << 16 | byte1 << 8 | byte2. */
export type Trigram = number;

/**
 * pg_trgm.similarity_threshold and pg_trgm.word_similarity_threshold at their defaults. pg_trgm compares a float4
 * with the double 0.3 (0.6); no float4 lies between 0.3 and fround(0.3), so comparing with fround(0.3) is the same.
 */
export const SIMILARITY_THRESHOLD = Math.fround(0.3);
export const WORD_SIMILARITY_THRESHOLD = Math.fround(0.6);

const LEFT_PADDING = 2;
const SPACE = 0x20;

/** pg_crc32_table: the reflected CRC-32 table, which the "legacy" CRC combines with a left shift. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** INIT/COMP/FIN_LEGACY_CRC32, then the first three bytes of the uint32 in memory (little-endian). */
function hashedTrigram(bytes: readonly number[]): Trigram {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[((crc >>> 24) ^ byte) & 0xff] ^ (crc << 8)) >>> 0;
  crc = (crc ^ 0xffffffff) >>> 0;
  return ((crc & 0xff) << 16) | (((crc >>> 8) & 0xff) << 8) | ((crc >>> 16) & 0xff);
}

function pushUtf8(bytes: number[], codePoint: number): void {
  if (codePoint < 0x80) bytes.push(codePoint);
  else if (codePoint < 0x800) bytes.push(0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f));
  else if (codePoint < 0x10000) bytes.push(0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f));
  else bytes.push(0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 0x3f), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f));
}

/** compact_trigram: three characters (code points) as one trigram. */
function trigramOf(a: number, b: number, c: number): Trigram {
  if (a < 0x80 && b < 0x80 && c < 0x80) return (a << 16) | (b << 8) | c;
  const bytes: number[] = [];
  pushUtf8(bytes, a);
  pushUtf8(bytes, b);
  pushUtf8(bytes, c);
  return hashedTrigram(bytes);
}

const NON_ASCII_WORD_CHARACTER = /^[\p{L}\p{Nd}]$/u;

/** ISWORDCHR: a letter or a digit (t_isalpha, t_isdigit). */
function isWordCharacter(codePoint: number): boolean {
  if (codePoint < 0x80) return (codePoint >= 0x61 && codePoint <= 0x7a) || (codePoint >= 0x41 && codePoint <= 0x5a) || (codePoint >= 0x30 && codePoint <= 0x39);
  return NON_ASCII_WORD_CHARACTER.test(String.fromCodePoint(codePoint));
}

/** One character's lower case, one character for one (towlower: "İ" is "i", a capital sigma always "σ"). */
function lowerCase(codePoint: number): number {
  if (codePoint < 0x80) return codePoint >= 0x41 && codePoint <= 0x5a ? codePoint + 0x20 : codePoint;
  return String.fromCodePoint(codePoint).toLowerCase().codePointAt(0)!;
}

/** The trigrams of one padded word, in order (make_trigrams). */
function pushWordTrigrams(trigrams: Trigram[], word: readonly number[]): void {
  const padded = [SPACE, SPACE, ...word, SPACE];
  for (let i = 0; i + 2 < padded.length; i++) trigrams.push(trigramOf(padded[i], padded[i + 1], padded[i + 2]));
}

/** Every word's trigrams in order, duplicates kept (generate_trgm_only): word_similarity's positions. */
export function trigramSequence(text: string): Trigram[] {
  const trigrams: Trigram[] = [];
  let word: number[] = [];
  for (const character of text) {
    const codePoint = character.codePointAt(0)!;
    if (isWordCharacter(codePoint)) word.push(lowerCase(codePoint));
    else if (word.length > 0) {
      pushWordTrigrams(trigrams, word);
      word = [];
    }
  }
  if (word.length > 0) pushWordTrigrams(trigrams, word);
  return trigrams;
}

/** The distinct trigrams of a text, in ascending order (generate_trgm; its own order does not matter to counts). */
export function trigramSet(text: string): Int32Array {
  return distinctSorted(trigramSequence(text));
}

function distinctSorted(trigrams: readonly Trigram[]): Int32Array {
  return Int32Array.from(new Set(trigrams)).sort();
}

/** How many trigrams two ascending sets share. */
export function sharedCount(a: Int32Array, b: Int32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else {
      shared++;
      i++;
      j++;
    }
  }
  return shared;
}

/** CALCSML with DIVUNION: shared / (n1 + n2 - shared) in float4 (a float64 quotient rounded once more is exact). */
export function trigramRatio(shared: number, length1: number, length2: number): number {
  return Math.fround(shared / (length1 + length2 - shared));
}

/** cnt_sml: the similarity of two trigram sets of these sizes sharing `shared` trigrams. */
export function similarityOfCounts(shared: number, length1: number, length2: number): number {
  return length1 <= 0 || length2 <= 0 ? 0 : trigramRatio(shared, length1, length2);
}

/** pg_trgm's similarity(a, b). */
export function similarity(a: string, b: string): number {
  const [setA, setB] = [trigramSet(a), trigramSet(b)];
  return similarityOfCounts(sharedCount(setA, setB), setA.length, setB.length);
}

/** Working arrays reused by every word_similarity (a search computes hundreds; JavaScript runs one at a time). */
const scratch = {
  found: new Uint8Array(256),
  lastPosition: new Int32Array(256),
  /** Room for `length` trigrams, `found` cleared and `lastPosition` at -1 over that length. */
  prepare(length: number): void {
    if (this.found.length < length) {
      this.found = new Uint8Array(length * 2);
      this.lastPosition = new Int32Array(length * 2);
    }
    this.found.fill(0, 0, length);
    this.lastPosition.fill(-1, 0, length);
  },
};

/**
 * A text prepared for word_similarity against many queries: its distinct trigrams (ascending) and, for each
 * position of its trigram sequence, the index of that trigram in `set`.
 */
export interface TrigramText {
  set: Int32Array;
  positions: Uint16Array;
}

export function trigramText(text: string): TrigramText {
  const sequence = trigramSequence(text);
  const set = distinctSorted(sequence);
  const indexOf = new Map<Trigram, number>();
  set.forEach((trigram, index) => indexOf.set(trigram, index));
  return { set, positions: Uint16Array.from(sequence, (trigram) => indexOf.get(trigram)!) };
}

/**
 * pg_trgm's word_similarity(query, text): the greatest similarity between the query's trigram set and a continuous
 * extent of the text's trigram sequence. `query` is the query's trigram set (ascending).
 */
export function wordSimilarityOf(query: Int32Array, text: TrigramText): number {
  scratch.prepare(text.set.length);
  const { found, lastPosition } = scratch;
  for (let i = 0, j = 0; i < query.length && j < text.set.length; ) {
    if (query[i] < text.set[j]) i++;
    else if (query[i] > text.set[j]) j++;
    else found[j++] = 1;
  }
  return iterateWordSimilarity(text.positions, found, lastPosition, query.length);
}

/** pg_trgm's word_similarity(a, b). */
export function wordSimilarity(query: string, text: string): number {
  return wordSimilarityOf(trigramSet(query), trigramText(text));
}

/**
 * iterate_word_similarity without its strict and check-only modes, statement for statement (its lower-bound
 * adjustment is a heuristic whose exact steps decide the value). `positions[i]` is the distinct trigram at position
 * i; `found[t]`: whether trigram t is one of the query's `queryLength` trigrams; `lastPosition[t]` starts at -1.
 */
function iterateWordSimilarity(positions: Uint16Array, found: Uint8Array, lastPosition: Int32Array, queryLength: number): number {
  let textLength = 0;
  let count = 0;
  let upper = -1;
  let lower = -1;
  let best = 0;
  for (let i = 0; i < positions.length; i++) {
    const trigram = positions[i];
    if (lower >= 0 || found[trigram]) {
      if (lastPosition[trigram] < 0) {
        textLength++;
        if (found[trigram]) count++;
      }
      lastPosition[trigram] = i;
    }
    if (!found[trigram]) continue;
    upper = i;
    if (lower === -1) {
      lower = i;
      textLength = 1;
    }
    let current = trigramRatio(count, queryLength, textLength);
    let candidateCount = count;
    let candidateLength = textLength;
    const previousLower = lower;
    for (let candidateLower = lower; candidateLower <= upper; candidateLower++) {
      const candidate = trigramRatio(candidateCount, queryLength, candidateLength);
      if (candidate > current) {
        current = candidate;
        textLength = candidateLength;
        lower = candidateLower;
        count = candidateCount;
      }
      const dropped = positions[candidateLower];
      if (lastPosition[dropped] === candidateLower) {
        candidateLength--;
        if (found[dropped]) candidateCount--;
      }
    }
    best = Math.max(best, current);
    for (let position = previousLower; position < lower; position++) {
      const dropped = positions[position];
      if (lastPosition[dropped] === position) lastPosition[dropped] = -1;
    }
  }
  return best;
}
