/**
 * Headlines made in the service, as PostgreSQL's ts_headline makes them but without sending the text to the database:
 * the words of a text that match a tsquery (read with parseTsquery) marked, in up to a few fragments around the
 * matches, or the text's opening when nothing matches. ts_headline parses the whole text on every call, and for a
 * page of web results that was most of the database's time per search.
 *
 * A word matches an operand when its lower-cased Snowball stem (the stemmer of the text's text-search configuration,
 * as PostgreSQL's `<language>_stem` dictionaries use) equals the operand's lexeme, or starts with it for a prefix
 * operand (`'cof':*`), unless it is a stop word of the configuration (PostgreSQL's english.stop is held here; other
 * configurations have none, so there a stop word whose stem is a query word's would be marked). Negated operands
 * (`!'decaf'`) are not marked. Words are runs of letters, marks and digits, so "don't" is two words and
 * "well-known" two, as PostgreSQL's parser splits them.
 */
import { stemmerOf } from "@apiplat/stemming";
import { lowerBound } from "./text-index.js";
import { parseTsquery } from "./text-query.js";

export interface HeadlineOptions {
  start: string;
  stop: string;
  /** A fragment's length in words at most (ts_headline's MaxWords). */
  maxWords: number;
  /** The opening's length in words, when nothing matches (ts_headline's MinWords). */
  minWords: number;
  /** How many fragments at most (ts_headline's MaxFragments); 1 or more. */
  maxFragments: number;
  /** Between fragments (ts_headline's FragmentDelimiter). */
  delimiter: string;
}

/** PostgreSQL's english.stop (the Snowball project's list): words the english configuration gives no lexeme. */
const STOP_WORDS: Record<string, ReadonlySet<string>> = {
  english: new Set(
    (
      "i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers " +
      "herself it its itself they them their theirs themselves what which who whom this that these those am is are " +
      "was were be been being have has had having do does did doing a an the and but if or because as until while of " +
      "at by for with about against between into through during before after above below to from up down in out on " +
      "off over under again further then once here there when where why how all any both each few more most other " +
      "some such no nor not only own same so than too very s t can will just don should now"
    ).split(" "),
  ),
};

/** Which words of a text a tsquery marks: built once per query, asked of every word of the headlined texts. */
export interface WordMatcher {
  /** The word's stem when the query marks it, else null. */
  matchedStem(word: string, config: string): string | null;
  /**
   * The first UTF-16 code units a matching word can start with (stemming keeps a word's first letter), so that most
   * words are passed over without being lower-cased or stemmed: ASCII ones as flags by code, the others in a set.
   */
  readonly firstAscii: Uint8Array;
  readonly firstOther: ReadonlySet<number>;
  /** True when the query marks nothing (only negated or no operands). */
  readonly empty: boolean;
}

export function wordMatcher(tsquery: string): WordMatcher {
  const { root, terms } = parseTsquery(tsquery);
  const negated = new Set<number>();
  const visit = (node: typeof root, inNot: boolean): void => {
    if (!node) return;
    if (node.kind === "term") {
      if (inNot) negated.add(node.operand);
    } else if (node.kind === "not") visit(node.child, true);
    else {
      visit(node.left, inNot);
      visit(node.right, inNot);
    }
  };
  visit(root, false);
  const marked = terms.filter((term) => !negated.has(term.operand) && term.lexeme !== "");
  const exact = new Set(marked.filter((term) => !term.prefix).map((term) => term.lexeme));
  const prefixes = marked.filter((term) => term.prefix).map((term) => term.lexeme);
  const firsts = marked.flatMap((term) => [term.lexeme, term.lexeme.toUpperCase()].map((form) => form.charCodeAt(0)));
  const firstAscii = new Uint8Array(128);
  for (const code of firsts) if (code < 128) firstAscii[code] = 1;
  return {
    empty: marked.length === 0,
    firstAscii,
    firstOther: new Set(firsts.filter((code) => code >= 128)),
    matchedStem(word, config) {
      const lower = word.toLowerCase();
      if (STOP_WORDS[config]?.has(lower)) return null;
      const stem = stemmerOf(config)(lower);
      return exact.has(stem) || prefixes.some((prefix) => stem.startsWith(prefix)) ? stem : null;
    },
  };
}

/** ASCII letters and digits; beyond ASCII, a letter, mark or digit of any script. */
const ASCII_WORD_CHAR = Uint8Array.from({ length: 128 }, (_, code) => (/[0-9A-Za-z]/.test(String.fromCharCode(code)) ? 1 : 0));
const WORD_CHAR = /^[\p{L}\p{M}\p{N}]$/u;

/** The length in UTF-16 code units of the word character at `i`, or 0 when it is not one. */
function wordCharAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 128) return ASCII_WORD_CHAR[code];
  const point = text.codePointAt(i)!;
  const width = point > 0xffff ? 2 : 1;
  return WORD_CHAR.test(String.fromCodePoint(point)) ? width : 0;
}

/**
 * A text's words as offsets: word i is text.slice(offsets[2i], offsets[2i + 1]). Finding them is most of a
 * headline's work, and a text's words do not change: keep them with the text when it is headlined often.
 */
export function wordOffsets(text: string): Int32Array {
  const offsets: number[] = [];
  let i = 0;
  while (i < text.length) {
    let width = wordCharAt(text, i);
    if (width === 0) {
      i++;
      continue;
    }
    offsets.push(i);
    while (width > 0) {
      i += width;
      width = i < text.length ? wordCharAt(text, i) : 0;
    }
    offsets.push(i);
  }
  return Int32Array.from(offsets);
}

/** A text's words (as wordOffsets gives them), which of them the query marks (ascending), and the marked ones' stems. */
interface Words {
  offsets: Int32Array;
  count: number;
  marks: number[];
  stems: string[];
}

function markedWords(text: string, offsets: Int32Array, matcher: WordMatcher, config: string): Words {
  const marks: number[] = [];
  const stems: string[] = [];
  const count = offsets.length / 2;
  if (matcher.empty) return { offsets, count, marks, stems };
  const { firstAscii, firstOther } = matcher;
  for (let w = 0; w < count; w++) {
    const start = offsets[2 * w];
    const code = text.charCodeAt(start);
    if (code < 128 ? firstAscii[code] === 0 : !firstOther.has(code)) continue;
    const stem = matcher.matchedStem(text.slice(start, offsets[2 * w + 1]), config);
    if (stem === null) continue;
    marks.push(w);
    stems.push(stem);
  }
  return { offsets, count, marks, stems };
}

/** Words first..last (inclusive) as the text has them, each marked word between the markers. */
function render(text: string, words: Words, first: number, last: number, options: HeadlineOptions): string {
  const { offsets } = words;
  let out = text.slice(offsets[2 * first], offsets[2 * last + 1]);
  // Markers go in from the end, so the offsets before them still hold.
  for (let k = words.marks.length - 1; k >= 0; k--) {
    const mark = words.marks[k];
    if (mark < first || mark > last) continue;
    const start = offsets[2 * mark] - offsets[2 * first];
    const end = offsets[2 * mark + 1] - offsets[2 * first];
    out = out.slice(0, start) + options.start + out.slice(start, end) + options.stop + out.slice(end);
  }
  return out;
}

interface Window {
  /** The marked words the fragment is made around: the first, and those following it within maxWords. */
  cluster: { first: number; last: number };
  first: number;
  last: number;
  /** Distinct stems marked inside, then marked words in all: what makes one fragment better. */
  distinct: number;
  marks: number;
}

/** Words from..to (inclusive) of at most maxWords around the cluster: what the cluster leaves is shared before and after it. */
function around(cluster: Window["cluster"], from: number, to: number, maxWords: number): { first: number; last: number } {
  const spare = maxWords - (cluster.last - cluster.first + 1);
  let first = Math.max(from, cluster.first - Math.floor(spare / 2));
  const last = Math.min(to, first + maxWords - 1);
  first = Math.max(from, last - maxWords + 1);
  return { first, last };
}

function candidates(words: Words, maxWords: number): Window[] {
  const { marks, stems, count } = words;
  return marks.map((first, k) => {
    let last = first;
    for (let j = k + 1; j < marks.length && marks[j] - first < maxWords; j++) last = marks[j];
    const cluster = { first, last };
    const window = around(cluster, 0, count - 1, maxWords);
    // The marks inside the window are a run of `marks`, which ascend.
    const from = lowerBound(marks, window.first);
    const to = lowerBound(marks, window.last + 1);
    return { cluster, ...window, distinct: new Set(stems.slice(from, to)).size, marks: to - from };
  });
}

const better = (a: Window, b: Window) => b.distinct - a.distinct || b.marks - a.marks || a.first - b.first;

/** The window fitted between the fragments already chosen, or null when its cluster overlaps one of them. */
function besideChosen(window: Window, chosen: Window[], count: number, maxWords: number): Window | null {
  let from = 0;
  let to = count - 1;
  for (const c of chosen) {
    if (c.last < window.cluster.first) from = Math.max(from, c.last + 1);
    else if (c.first > window.cluster.last) to = Math.min(to, c.first - 1);
    else return null;
  }
  return { ...window, ...around(window.cluster, from, to, maxWords) };
}

/**
 * The headline of `text` for the query: up to maxFragments fragments of at most maxWords words, those holding the
 * most distinct matched stems (then the most matches, then the earliest), each around its matches and beside, never
 * over, the fragments chosen before it, shown in the text's order between delimiters; or, with no match, the text's
 * first minWords words. A fragment runs from its first word to its last,
 * so punctuation before or after goes, as ts_headline's does.
 */
export function headline(text: string, matcher: WordMatcher, config: string, options: HeadlineOptions, offsets = wordOffsets(text)): string {
  const words = markedWords(text, offsets, matcher, config);
  if (words.count === 0) return "";
  if (words.marks.length === 0) return render(text, words, 0, Math.min(words.count, options.minWords) - 1, options);
  const chosen: Window[] = [];
  for (const candidate of candidates(words, options.maxWords).sort(better)) {
    if (chosen.length === options.maxFragments) break;
    const fitted = besideChosen(candidate, chosen, words.count, options.maxWords);
    if (fitted) chosen.push(fitted);
  }
  return chosen
    .sort((a, b) => a.first - b.first)
    .map((window) => render(text, words, window.first, window.last, options))
    .join(options.delimiter);
}
