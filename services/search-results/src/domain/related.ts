/**
 * Related searches from co-occurring phrases: the two-word phrases (then single words) that recur most across the
 * titles and opening text of the best results that hold every word of the query, other than the query's own words,
 * each appended to the query. A result that matched only some of the query's words (the search takes any of them)
 * says nothing of what goes with the query: "eiffel tower height" must not borrow "beer" from pages about a beer's
 * height.
 */
import { firstInOrder } from "@apiplat/catalogue";

const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other " +
    "our ours out over own same she should so some such than that the their theirs them then there these they this those " +
    "through to too under until up very was we were what when where which while who whom why will with would you your " +
    "yours also one two get got use used using can't don't does doesn't is there what's i'm it's way much many make like"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

function words(text: string): string[] {
  return [...text.toLowerCase().matchAll(WORD)].map((m) => m[0].replace(/(?<!['’-])['’-]+$/, ""));
}

/** Long enough, not a stop word, not a number: the words phrases are made of. */
function isUseful(word: string): boolean {
  return word.length >= 3 && !STOP_WORDS.has(word) && !/^\d+$/.test(word);
}

/** Whether a text's phrases (see Phrases.of) hold a single word of each of the stems. */
function holdsAll(text: Int32Array, stems: readonly number[]): boolean {
  for (const stem of stems) {
    let held = false;
    for (let i = 1; i < text.length && !held; i += 2) held = text[i] === stem;
    if (!held) return false;
  }
  return true;
}

/** Crude English stemming for comparing with the query: "coffees" and "coffee" are the same word here. */
function stem(word: string): string {
  return word.replace(/(ies|es|s|ing|ed)$/, "");
}

/**
 * Every phrase met in the results' texts, numbered: its text, whether it is a pair of words, and its words' stems
 * (numbered too; -1 for a single word's second). What a text holds is kept as the numbers of its phrases, each once:
 * the best results of one search are often those of the next, and splitting and stemming their texts was most of the
 * cost of related searches. Numbers rather than objects: a page of results shows a few thousand phrases, and kept as
 * objects they were most of what the heap held and the collector marked. Forgotten wholesale past their bound.
 */
class Phrases {
  private readonly ids = new Map<string, number>();
  private readonly stemIds = new Map<string, number>();
  readonly text: string[] = [];
  readonly isPair: boolean[] = [];
  readonly firstStem: number[] = [];
  readonly secondStem: number[] = [];
  private readonly ofText = new Map<string, Int32Array>();

  /** Each text's phrases (see `of`), all numbered in the same table. */
  ofAll(texts: readonly string[]): Int32Array[] {
    // Forgetting renumbers: never between two texts of one search.
    if (this.ofText.size + texts.length > KEPT_TEXTS) this.forget();
    return texts.map((text) => this.of(text));
  }

  /**
   * The phrases of a text: adjacent pairs of useful words (long enough, not stop words, not numbers), then useful
   * words, each as its number and, for a single word, its stem's number (-1 for a pair), side by side: what a search
   * reads of them, in one array of the text's own rather than in tables as long as every phrase met.
   */
  private of(text: string): Int32Array {
    let held = this.ofText.get(text);
    if (held) return held;
    const list = words(text).map((word) => ({ word, stem: stem(word), useful: isUseful(word) }));
    const pairs = new Set<number>();
    const singles = new Set<number>();
    for (let i = 0; i < list.length; i++) {
      const { word, stem, useful } = list[i];
      if (!useful) continue;
      singles.add(this.idOf(word, [stem]));
      const next = list[i + 1];
      if (next?.useful) pairs.add(this.idOf(`${word} ${next.word}`, [stem, next.stem]));
    }
    held = new Int32Array(2 * (pairs.size + singles.size));
    let at = 0;
    for (const id of pairs) [held[at++], held[at++]] = [id, -1];
    for (const id of singles) [held[at++], held[at++]] = [id, this.firstStem[id]];
    this.ofText.set(text, held);
    return held;
  }

  stemId(stem: string): number | undefined {
    return this.stemIds.get(stem);
  }

  private idOf(phrase: string, stems: string[]): number {
    let id = this.ids.get(phrase);
    if (id !== undefined) return id;
    id = this.text.length;
    this.ids.set(phrase, id);
    this.text.push(phrase);
    this.isPair.push(stems.length === 2);
    const [first, second] = stems.map((s) => {
      let n = this.stemIds.get(s);
      if (n === undefined) this.stemIds.set(s, (n = this.stemIds.size));
      return n;
    });
    this.firstStem.push(first);
    this.secondStem.push(second ?? -1);
    return id;
  }

  private forget(): void {
    this.ofText.clear();
    this.ids.clear();
    this.stemIds.clear();
    for (const list of [this.text, this.isPair, this.firstStem, this.secondStem]) list.length = 0;
  }
}

const KEPT_TEXTS = 20_000;
/** How many phrases are put in order before any is chosen (all of them when these do not fill the list). */
const FIRST_SORTED = 32;

const phrases = new Phrases();

/**
 * How many texts of one search hold each phrase: a table by phrase number (open addressing) sized for one search's
 * phrases, a few thousand, so that it stays in the processor's cache. An array indexed by phrase number grew with
 * every phrase met (hundreds of thousands over a run of distinct searches), and each count read a line of it from
 * memory.
 */
class PhraseCounts {
  private numbers = new Int32Array(8192).fill(-1);
  private counts = new Int32Array(8192);
  /** The slots in use, in the order their phrases were first met. */
  readonly met: number[] = [];

  /** Empty, with room for this many phrases (the table at most half full). */
  reset(phrases: number): void {
    this.clear();
    let size = this.numbers.length;
    while (2 * phrases > size) size *= 2;
    if (size === this.numbers.length) return;
    this.numbers = new Int32Array(size).fill(-1);
    this.counts = new Int32Array(size);
  }

  add(phrase: number): void {
    this.counts[this.slotOf(phrase)]++;
  }

  phrase(slot: number): number {
    return this.numbers[slot];
  }

  count(slot: number): number {
    return this.counts[slot];
  }

  private clear(): void {
    for (const slot of this.met) {
      this.numbers[slot] = -1;
      this.counts[slot] = 0;
    }
    this.met.length = 0;
  }

  /** The phrase's slot, taken for it when it has none (phrase numbers are dense: their low bits spread them). */
  private slotOf(phrase: number): number {
    const mask = this.numbers.length - 1;
    let slot = phrase & mask;
    while (this.numbers[slot] !== phrase && this.numbers[slot] !== -1) slot = (slot + 1) & mask;
    if (this.numbers[slot] === -1) {
      this.numbers[slot] = phrase;
      this.met.push(slot);
    }
    return slot;
  }
}

const spread = new PhraseCounts();

/**
 * Up to `count` related queries for `query` from the texts of its best results: phrases found in at least two of the
 * texts, most widespread first (pairs before single words at equal spread), ties in alphabetical order.
 */
export function relatedQueries(query: string, texts: readonly string[], count = 8): string[] {
  // Excluded words (-lager) are neither required nor repeated.
  const queryWords = words(query.replace(/(^|\s)-\S+/g, " ")).filter((w) => !STOP_WORDS.has(w));
  const ofTexts = phrases.ofAll(texts);
  const queryStems = new Set(words(query).flatMap((w) => phrases.stemId(stem(w)) ?? []));
  // The words a text must hold: every useful word of the query (a word no text holds has no stem id: nothing co-occurs).
  const required = [...new Set(queryWords.filter(isUseful).map(stem))].map((s) => phrases.stemId(s));
  if (required.includes(undefined)) return [];
  // How many texts hold each phrase.
  spread.reset(ofTexts.reduce((sum, text) => sum + text.length / 2, 0));
  for (const text of ofTexts) {
    if (!holdsAll(text, required as number[])) continue;
    for (let i = 0; i < text.length; i += 2) spread.add(text[i]);
  }
  // The query's own words are left out of the few phrases met twice, not checked for every phrase met.
  const widespread = spread.met.filter((slot) => {
    const id = spread.phrase(slot);
    return spread.count(slot) >= 2 && !queryStems.has(phrases.firstStem[id]) && !queryStems.has(phrases.secondStem[id]);
  });
  const order = (a: number, b: number) =>
    spread.count(b) - spread.count(a) ||
    Number(phrases.isPair[spread.phrase(b)]) - Number(phrases.isPair[spread.phrase(a)]) ||
    phrases.text[spread.phrase(a)].localeCompare(phrases.text[spread.phrase(b)]);
  const chosen: string[] = [];
  // The first few in order usually fill the list: the rest are sorted only when they do not.
  let ranked = firstInOrder(widespread, order, FIRST_SORTED);
  for (let at = 0; at < widespread.length && chosen.length < count; at++) {
    if (at === ranked.length) ranked = widespread.sort(order);
    const id = spread.phrase(ranked[at]);
    const phrase = phrases.text[id];
    // A single word already inside a chosen pair adds nothing.
    if (!phrases.isPair[id] && chosen.some((c) => c.split(" ").includes(phrase))) continue;
    chosen.push(phrase);
  }
  const base = queryWords.join(" ");
  return chosen.map((phrase) => (base ? `${base} ${phrase}` : phrase));
}
