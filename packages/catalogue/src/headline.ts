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
import { uncachedStemmerOf } from "@apiplat/stemming";
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

/**
 * The stems of one text-search configuration, numbered. A headlined text's words are read once, as their stems'
 * numbers (see readForHeadlines), so that marking them for a query compares numbers: stemming each word again for
 * every query was most of a page of results' cost. A word form is stemmed once for all texts (the table is its
 * stemmer's cache, so the stemmer keeps none). Bounded: a table takes
 * new forms until it holds MAX_WORD_FORMS, then the next text read starts a new one (texts read under an older table
 * keep it, and their readers read them again: see isCurrent).
 */
export class StemTable {
  /** A word as a text spells it -> its stem's number, or -1 for a stop word of the configuration. */
  private readonly forms = new Map<string, number>();
  private readonly numbers = new Map<string, number>();
  private readonly stems: string[] = [];

  constructor(readonly config: string) {}

  get full(): boolean {
    return this.forms.size >= MAX_WORD_FORMS;
  }

  /** The number of a word's stem (lower-cased, stemmed as the configuration's dictionary does); -1 for a stop word. */
  numberOfWord(word: string): number {
    let number = this.forms.get(word);
    if (number === undefined) {
      const lower = word.toLowerCase();
      number = STOP_WORDS[this.config]?.has(lower) ? -1 : this.numberOfStem(uncachedStemmerOf(this.config)(lower), true)!;
      this.forms.set(word, number);
    }
    return number;
  }

  /** A stem's number; with `add`, a stem not met yet is given one, else it has none. */
  numberOfStem(stem: string, add = false): number | undefined {
    let number = this.numbers.get(stem);
    if (number === undefined && add) {
      number = this.stems.length;
      this.stems.push(stem);
      this.numbers.set(stem, number);
    }
    return number;
  }

  stem(number: number): string {
    return this.stems[number];
  }
}

/** Word forms one table numbers (a few tens of MB at most; the datasets' texts have about 150,000). */
const MAX_WORD_FORMS = 300_000;
const tables = new Map<string, StemTable>();

function currentTable(config: string): StemTable {
  let table = tables.get(config);
  if (!table || table.full) tables.set(config, (table = new StemTable(config)));
  return table;
}

/**
 * A text's words as a headline reads them: where each is (as wordOffsets gives them), and by stem. A query's stems
 * are looked up in a short directory of the text's stems (a few hundred; one array read per step), not among its
 * words: a page's arrays are rarely in the processor's cache, and each read of them costs a miss.
 */
export interface HeadlineText {
  text: string;
  offsets: Int32Array;
  /** The words' indexes ordered by stem number, then position: a stem's words are one run of it. */
  byStem: Int32Array;
  /** The stems the text holds (their numbers in `table`, -1 for stop words), ascending. */
  runStems: Int32Array;
  /** Where each of runStems' runs starts in byStem, and then the end. */
  runStarts: Int32Array;
  table: StemTable;
}

/**
 * A text read for headlines under a text-search configuration: its words (with `end`, those of text.slice(0, end),
 * as wordOffsets gives them) and their stems. A text headlined often is read once and kept (while isCurrent): then a
 * query's words are found in it by their stems, without visiting the others.
 */
export function readForHeadlines(text: string, config: string, end = text.length): HeadlineText {
  const table = currentTable(config);
  const offsets = wordOffsets(text, end);
  const count = offsets.length / 2;
  // Ordered as one number per word, (stem + 1) * count + index (exact in a double): a typed array's sort has no callback.
  const keys = new Float64Array(count);
  for (let w = 0; w < count; w++) keys[w] = (table.numberOfWord(text.slice(offsets[2 * w], offsets[2 * w + 1])) + 1) * count + w;
  keys.sort();
  const byStem = new Int32Array(count);
  const stems: number[] = [];
  const starts: number[] = [];
  for (let i = 0; i < count; i++) {
    byStem[i] = keys[i] % count;
    const stem = Math.floor(keys[i] / count) - 1;
    if (stems.length === 0 || stems[stems.length - 1] !== stem) {
      stems.push(stem);
      starts.push(i);
    }
  }
  starts.push(count);
  return { text, offsets, byStem, runStems: new Int32Array(stems), runStarts: new Int32Array(starts), table };
}

/** Which of the text's runs holds the stem's words, or -1 when the text has none. */
function runOf(read: HeadlineText, stem: number): number {
  const { runStems } = read;
  let lo = 0;
  let hi = runStems.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (runStems[mid] < stem) lo = mid + 1;
    else hi = mid;
  }
  return lo < runStems.length && runStems[lo] === stem ? lo : -1;
}

/** Whether a text read earlier is still numbered in its configuration's current table (else it is read again). */
export function isCurrent(read: HeadlineText): boolean {
  return tables.get(read.table.config) === read.table;
}

/** Which words of a text a tsquery marks: built once per query, asked of every headlined text. */
export interface WordMatcher {
  /**
   * The numbers in `table` of the stems the query marks as they are. Asked again for each text: a stem the query names
   * may have been numbered by the text read just before.
   */
  exactIn(table: StemTable): Int32Array;
  /** Whether a stem of `table` starts with a prefix the query marks (`'cof':*`); null when it marks none. */
  prefixedIn(table: StemTable): ((stem: number) => boolean) | null;
  /** True when the query marks nothing (only negated or no operands). */
  readonly empty: boolean;
}

/**
 * A word matches an operand when its stem equals the operand's lexeme, or starts with it for a prefix operand.
 * Negated operands are not marked.
 */
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
  const exact = [...new Set(marked.filter((term) => !term.prefix).map((term) => term.lexeme))];
  const prefixes = marked.filter((term) => term.prefix).map((term) => term.lexeme);
  const prefixMatches = new WeakMap<StemTable, (stem: number) => boolean>();
  // Once a table numbers every lexeme, its numbers stay.
  const numbered = new WeakMap<StemTable, Int32Array>();
  return {
    empty: marked.length === 0,
    exactIn(table) {
      const known = numbered.get(table);
      if (known) return known;
      const numbers = exact.flatMap((lexeme) => table.numberOfStem(lexeme) ?? []);
      const found = Int32Array.from(numbers);
      if (numbers.length === exact.length) numbered.set(table, found);
      return found;
    },
    prefixedIn(table) {
      if (prefixes.length === 0) return null;
      let prefixed = prefixMatches.get(table);
      if (!prefixed) {
        const known = new Map<number, boolean>();
        prefixed = (stem) => {
          let matches = known.get(stem);
          if (matches === undefined) {
            const text = table.stem(stem);
            known.set(stem, (matches = prefixes.some((prefix) => text.startsWith(prefix))));
          }
          return matches;
        };
        prefixMatches.set(table, prefixed);
      }
      return prefixed;
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

/** A text's words (as wordOffsets gives them), which of them the query marks (ascending), and the marked ones' stem numbers. */
interface Words {
  offsets: Int32Array;
  count: number;
  marks: Int32Array;
  /** The first marks.length of them (a scratch array, see scratchFor). */
  stems: Int32Array;
}

/** The words the query marks, found by their stems' runs: a long page costs the same as a short one. */
function markedWords(read: HeadlineText, matcher: WordMatcher): Words {
  const { byStem, offsets, runStems, runStarts } = read;
  const count = byStem.length;
  if (matcher.empty) return { offsets, count, marks: NO_WORDS, stems: NO_WORDS };
  const exact = matcher.exactIn(read.table);
  const prefixed = matcher.prefixedIn(read.table);
  // Each marked stem's words: a run of byStem, in the text's order (start, end and stem here).
  const runs: number[] = [];
  for (const stem of exact) {
    const run = runOf(read, stem);
    if (run >= 0) runs.push(runStarts[run], runStarts[run + 1], stem);
  }
  if (prefixed) {
    for (let run = 0; run < runStems.length; run++) {
      const stem = runStems[run];
      if (stem >= 0 && !exact.includes(stem) && prefixed(stem)) runs.push(runStarts[run], runStarts[run + 1], stem);
    }
  }
  return { offsets, count, ...mergedRuns(byStem, runs) };
}

/** The words of the runs of `byStem` (start, end and stem triples) in the text's order, and each one's stem. */
function mergedRuns(byStem: Int32Array, runs: number[]): { marks: Int32Array; stems: Int32Array } {
  let total = 0;
  for (let r = 0; r < runs.length; r += 3) total += runs[r + 1] - runs[r];
  const marks = new Int32Array(total);
  const { stems } = scratchFor(total);
  if (runs.length === 3) {
    marks.set(byStem.subarray(runs[0], runs[1]));
    stems.fill(runs[2], 0, total);
  } else if (runs.length <= 3 * 16) {
    // A query marks few stems: their runs are merged, taking the earliest next word of any.
    const next = runs.filter((_, i) => i % 3 === 0);
    for (let at = 0; at < total; at++) {
      let best = -1;
      for (let r = 0; r < next.length; r++) {
        if (next[r] < runs[3 * r + 1] && (best < 0 || byStem[next[r]] < byStem[next[best]])) best = r;
      }
      marks[at] = byStem[next[best]++];
      stems[at] = runs[3 * best + 2];
    }
  } else {
    // Prefixes that stand for many stems: sorted, each word's stem noted first.
    const stemOf = new Map<number, number>();
    for (let r = 0, at = 0; r < runs.length; r += 3) {
      for (let i = runs[r]; i < runs[r + 1]; i++, at++) {
        marks[at] = byStem[i];
        stemOf.set(byStem[i], runs[r + 2]);
      }
    }
    marks.sort();
    for (let m = 0; m < total; m++) stems[m] = stemOf.get(marks[m])!;
  }
  return { marks, stems };
}

const NO_WORDS = new Int32Array(0);

/** A fragment's words as the text has them, each marked word between the markers. */
function render({ text, offsets }: HeadlineText, marks: Int32Array, { first, last }: Fragment, options: HeadlineOptions): string {
  let out = text.slice(offsets[2 * first], offsets[2 * last + 1]);
  // Markers go in from the end, so the offsets before them still hold.
  for (let k = marks.length - 1; k >= 0; k--) {
    const mark = marks[k];
    if (mark < first || mark > last) continue;
    const start = offsets[2 * mark] - offsets[2 * first];
    const end = offsets[2 * mark + 1] - offsets[2 * first];
    out = out.slice(0, start) + options.start + out.slice(start, end) + options.stop + out.slice(end);
  }
  return out;
}

/** A fragment: words first..last (inclusive) of the text. */
export interface Fragment {
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
  const work = scratchFor(n);
  const { numbered } = work;
  const distinctStems = numberStems(stems, n, numbered);
  const found: Candidates = { count: n, clusterFirst: marks, clusterLast: work.clusterLast, first: work.first, distinct: work.distinct, marks: work.marks };
  // The marks inside a window are a run of `marks` (which ascend), marks[from..to), and windows only move forward
  // with k: the run is walked along, each stem's marks in it counted as they enter and leave.
  const held = work.held;
  held.fill(0, 0, distinctStems);
  let distinct = 0;
  let from = 0;
  let to = 0;
  let j = 0;
  for (let k = 0; k < n; k++) {
    // The cluster's last mark only moves forward with k.
    if (j < k) j = k;
    while (j + 1 < n && marks[j + 1] - marks[k] < maxWords) j++;
    found.clusterLast[k] = marks[j];
    const spare = maxWords - (marks[j] - marks[k] + 1);
    const last = Math.min(count - 1, Math.max(0, marks[k] - Math.floor(spare / 2)) + maxWords - 1);
    const first = Math.max(0, last - maxWords + 1); // as around() places it within the whole text
    found.first[k] = first;
    for (; to < n && marks[to] <= last; to++) if (held[numbered[to]]++ === 0) distinct++;
    for (; from < to && marks[from] < first; from++) if (--held[numbered[from]] === 0) distinct--;
    found.distinct[k] = distinct;
    found.marks[k] = to - from;
  }
  return found;
}

/**
 * Each of the first `count` marks' stem renumbered 0, 1, ... in order of first appearance, into `numbered`; how many
 * distinct stems. A query marks few stems, so a short list finds them.
 */
function numberStems(stems: Int32Array, count: number, numbered: Int32Array): number {
  const seen: number[] = [];
  let byStem: Map<number, number> | null = null;
  for (let m = 0; m < count; m++) {
    let number = byStem ? byStem.get(stems[m]) : seen.indexOf(stems[m]);
    if (number === undefined || number < 0) {
      number = seen.length;
      seen.push(stems[m]);
      if (byStem) byStem.set(stems[m], number);
      else if (seen.length > 16) byStem = new Map(seen.map((stem, i) => [stem, i]));
    }
    numbered[m] = number;
  }
  return seen.length;
}

/** The arrays a headline's marks are weighed in: each as long as the marks (`held` too, counting distinct stems). */
interface HeadlineScratch {
  stems: Int32Array;
  numbered: Int32Array;
  held: Int32Array;
  clusterLast: Int32Array;
  first: Int32Array;
  distinct: Int32Array;
  marks: Int32Array;
}

let scratch: HeadlineScratch | null = null;

/**
 * The arrays a headline is worked out in, at least `size` long: kept from one headline to the next, which are made
 * one at a time (synchronously), and grown when a text needs more. A search's ten snippets each allocating seven of
 * them (outside V8's heap past 16 numbers, a microsecond or more each) cost more than choosing the fragments.
 */
function scratchFor(size: number): HeadlineScratch {
  if (!scratch || scratch.stems.length < size) {
    const length = Math.max(size, 2 * (scratch?.stems.length ?? 128));
    const array = () => new Int32Array(length);
    scratch = { stems: array(), numbered: array(), held: array(), clusterLast: array(), first: array(), distinct: array(), marks: array() };
  }
  return scratch;
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

/** What chooses a headline's fragments (HeadlineOptions without how they are shown). */
export type FragmentOptions = Pick<HeadlineOptions, "maxWords" | "minWords" | "maxFragments">;

/**
 * A headline's fragments for the query, in the text's order: up to maxFragments of at most maxWords words, those
 * holding the most distinct matched stems (then the most matches, then the earliest), each around its matches and
 * beside, never over, the fragments chosen before it; or, with no match, the text's first minWords words (none for
 * a text without words). With the words the query marks (indexes, ascending), inside the fragments or not.
 */
export function headlineFragments(read: HeadlineText, matcher: WordMatcher, options: FragmentOptions): { fragments: Fragment[]; marks: Int32Array } {
  const words = markedWords(read, matcher);
  if (words.count === 0) return { fragments: [], marks: words.marks };
  if (words.marks.length === 0) return { fragments: [{ first: 0, last: Math.min(words.count, options.minWords) - 1 }], marks: words.marks };
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
  return { fragments: inTextOrder(chosen), marks: words.marks };
}

/** Fragments by position: a few (two for snippets), put in order in place, without a sort's work arrays (6 KB a search). */
function inTextOrder(fragments: Fragment[]): Fragment[] {
  for (let i = 1; i < fragments.length; i++) {
    const fragment = fragments[i];
    let j = i;
    for (; j > 0 && fragments[j - 1].first > fragment.first; j--) fragments[j] = fragments[j - 1];
    fragments[j] = fragment;
  }
  return fragments;
}

/**
 * The headline of a text for the query (see headlineFragments), its fragments between delimiters and each marked
 * word between the markers. A fragment runs from its first word to its last, so punctuation before or after goes,
 * as ts_headline's does.
 */
export function headline(read: HeadlineText, matcher: WordMatcher, options: HeadlineOptions): string {
  const { fragments, marks } = headlineFragments(read, matcher, options);
  return fragments.map((fragment) => render(read, marks, fragment, options)).join(options.delimiter);
}
