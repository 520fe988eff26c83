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
import { lowerBound } from "./sorted-sets.js";
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
  // Stemming is the dear part of matching a word, and a page of results says the same words again and again: each
  // word is stemmed once per query. Past MATCHED_KEPT words (texts of words all different) the rest are stemmed anew.
  const known = new Map<string, Map<string, string | null>>();
  let kept = 0;
  const match = (word: string, config: string): string | null => {
    const lower = word.toLowerCase();
    if (STOP_WORDS[config]?.has(lower)) return null;
    const stem = stemmerOf(config)(lower);
    return exact.has(stem) || prefixes.some((prefix) => stem.startsWith(prefix)) ? stem : null;
  };
  return {
    empty: marked.length === 0,
    firstAscii,
    firstOther: new Set(firsts.filter((code) => code >= 128)),
    matchedStem(word, config) {
      let ofConfig = known.get(config);
      if (!ofConfig) known.set(config, (ofConfig = new Map()));
      let stem = ofConfig.get(word);
      if (stem === undefined) {
        stem = match(word, config);
        if (kept < MATCHED_KEPT) {
          ofConfig.set(word, stem);
          kept++;
        }
      }
      return stem;
    },
  };
}

/** Words whose match one query's matcher keeps (a few MB at most). */
const MATCHED_KEPT = 50_000;

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
 * With `end`, only the words of text.slice(0, end) that end there: a word running past `end` is left out.
 */
export function wordOffsets(text: string, end = text.length): Int32Array {
  const offsets: number[] = [];
  const stop = Math.min(end, text.length);
  let i = 0;
  while (i < stop) {
    let width = wordCharAt(text, i);
    if (width === 0) {
      i++;
      continue;
    }
    const start = i;
    while (width > 0 && i < stop) {
      i += width;
      width = i < text.length ? wordCharAt(text, i) : 0;
    }
    if (width > 0 || i > stop) break;
    offsets.push(start, i);
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

/** A fragment: words first..last (inclusive) of the text. */
interface Fragment {
  first: number;
  last: number;
}

/** Words from..to (inclusive) of at most maxWords around the cluster: what the cluster leaves is shared before and after it. */
function around(clusterFirst: number, clusterLast: number, from: number, to: number, maxWords: number): Fragment {
  const spare = maxWords - (clusterLast - clusterFirst + 1);
  let first = Math.max(from, clusterFirst - Math.floor(spare / 2));
  const last = Math.min(to, first + maxWords - 1);
  first = Math.max(from, last - maxWords + 1);
  return { first, last };
}

/**
 * The fragment each marked word would start: its cluster (the marked words following it within maxWords), the words
 * around that cluster, and what makes one fragment better than another (distinct stems marked inside, then marked
 * words in all). Held in typed arrays rather than an object per mark: a long page that matches everywhere has
 * thousands of them.
 */
interface Candidates {
  count: number;
  clusterFirst: Int32Array;
  clusterLast: Int32Array;
  first: Int32Array;
  distinct: Int32Array;
  marks: Int32Array;
}

function candidates(words: Words, maxWords: number): Candidates {
  const { marks, stems, count } = words;
  const n = marks.length;
  // Distinct stems in a window, counted by number: a stem is seen in window k when seenIn[its number] is k.
  const numbers = new Map<string, number>();
  const numbered = new Int32Array(n);
  for (let m = 0; m < n; m++) {
    let number = numbers.get(stems[m]);
    if (number === undefined) numbers.set(stems[m], (number = numbers.size));
    numbered[m] = number;
  }
  const seenIn = new Int32Array(numbers.size).fill(-1);
  const found: Candidates = {
    count: n,
    clusterFirst: Int32Array.from(marks),
    clusterLast: new Int32Array(n),
    first: new Int32Array(n),
    distinct: new Int32Array(n),
    marks: new Int32Array(n),
  };
  let j = 0;
  for (let k = 0; k < n; k++) {
    // The cluster's last mark only moves forward with k.
    if (j < k) j = k;
    while (j + 1 < n && marks[j + 1] - marks[k] < maxWords) j++;
    found.clusterLast[k] = marks[j];
    const window = around(marks[k], marks[j], 0, count - 1, maxWords);
    found.first[k] = window.first;
    // The marks inside the window are a run of `marks`, which ascend.
    const from = lowerBound(marks, window.first);
    const to = lowerBound(marks, window.last + 1);
    for (let m = from; m < to; m++) {
      if (seenIn[numbered[m]] === k) continue;
      seenIn[numbered[m]] = k;
      found.distinct[k]++;
    }
    found.marks[k] = to - from;
  }
  return found;
}

/** Whether candidate a is better than b: more distinct stems, then more marks, then earlier (then the earlier mark). */
function isBetter(c: Candidates, a: number, b: number): boolean {
  return (c.distinct[a] - c.distinct[b] || c.marks[a] - c.marks[b] || c.first[b] - c.first[a] || b - a) > 0;
}

/** Candidate k's window fitted between the fragments already chosen, or null when its cluster overlaps one of them. */
function besideChosen(c: Candidates, k: number, chosen: Fragment[], count: number, maxWords: number): Fragment | null {
  let from = 0;
  let to = count - 1;
  for (const fragment of chosen) {
    if (fragment.last < c.clusterFirst[k]) from = Math.max(from, fragment.last + 1);
    else if (fragment.first > c.clusterLast[k]) to = Math.min(to, fragment.first - 1);
    else return null;
  }
  return around(c.clusterFirst[k], c.clusterLast[k], from, to, maxWords);
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
  const found = candidates(words, options.maxWords);
  const chosen: Fragment[] = [];
  // Each fragment is the best candidate that still fits beside those chosen (one that overlaps them never will):
  // a scan per fragment rather than a sort of every candidate.
  while (chosen.length < options.maxFragments) {
    let best = -1;
    let bestFragment: Fragment | null = null;
    for (let k = 0; k < found.count; k++) {
      if (best >= 0 && !isBetter(found, k, best)) continue;
      const fitted = besideChosen(found, k, chosen, words.count, options.maxWords);
      if (!fitted) continue;
      best = k;
      bestFragment = fitted;
    }
    if (!bestFragment) break;
    chosen.push(bestFragment);
  }
  return chosen
    .sort((a, b) => a.first - b.first)
    .map((window) => render(text, words, window.first, window.last, options))
    .join(options.delimiter);
}
