/**
 * Related searches from co-occurring phrases: the two-word phrases (then single words) that recur most across the
 * titles and opening text of the best results that hold every word of the query, other than the query's own words,
 * each appended to the query. A result that matched only some of the query's words (the search takes any of them)
 * says nothing of what goes with the query: "eiffel tower height" must not borrow "beer" from pages about a beer's
 * height.
 */
import { firstInOrder, grown } from "@apiplat/catalogue";

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
 * Every phrase met in the results' texts, numbered: its words (numbered too, each with its stem's number). What a
 * text holds is kept as the numbers of its phrases, each once: the best results of one search are often those of the
 * next, and splitting and stemming their texts was most of the cost of related searches. A word's text is held once,
 * and a phrase only as numbers in typed arrays (its text is written when a search first compares or shows it): held
 * as strings, with a string of its own for each word of each pair, the phrases of the datasets' 4,350 openings were
 * some 110,000 objects more for every major collection to mark. Forgotten wholesale past their bound.
 */
class Phrases {
  private readonly wordNumbers = new Map<string, number>();
  private readonly wordText: string[] = [];
  private readonly wordStem: number[] = [];
  /** Each word's number as a phrase of its own, -1 until it is one. */
  private readonly wordPhrase: number[] = [];
  private readonly stemIds = new Map<string, number>();
  /** A phrase's first word, and its second (-1 for a single word). */
  private first = new Int32Array(4096);
  private second = new Int32Array(4096);
  private count = 0;
  private readonly shownTexts: (string | undefined)[] = [];
  private readonly pairs = new PairNumbers();
  private readonly ofText = new Map<string, Int32Array>();

  /** How many texts' phrases are held. */
  get heldTexts(): number {
    return this.ofText.size;
  }

  /** Each text's phrases (see `of`), all numbered in the same table. */
  ofAll(texts: readonly string[]): Int32Array[] {
    // Forgetting renumbers: never between two texts of one search.
    if (this.ofText.size + texts.length > KEPT_TEXTS) this.forget();
    return texts.map((text) => this.of(text));
  }

  stemId(stem: string): number | undefined {
    return this.stemIds.get(stem);
  }

  isPair(phrase: number): boolean {
    return this.second[phrase] !== -1;
  }

  firstStem(phrase: number): number {
    return this.wordStem[this.first[phrase]];
  }

  secondStem(phrase: number): number {
    const second = this.second[phrase];
    return second === -1 ? -1 : this.wordStem[second];
  }

  /** A phrase's text, written the first time a search compares or shows it, then kept with the phrase. */
  text(phrase: number): string {
    let text = this.shownTexts[phrase];
    if (text === undefined) {
      const [first, second] = [this.first[phrase], this.second[phrase]];
      text = second === -1 ? this.wordText[first] : `${this.wordText[first]} ${this.wordText[second]}`;
      this.shownTexts[phrase] = text;
    }
    return text;
  }

  /**
   * The phrases of a text: adjacent pairs of useful words (long enough, not stop words, not numbers), then useful
   * words, each as its number and, for a single word, its stem's number (-1 for a pair), side by side: what a search
   * reads of them, in one array of the text's own rather than in tables as long as every phrase met.
   */
  private of(text: string): Int32Array {
    let held = this.ofText.get(text);
    if (held) return held;
    const list = words(text).map((word) => (isUseful(word) ? this.wordOf(word) : -1));
    const pairs = new Set<number>();
    const singles = new Set<number>();
    for (let i = 0; i < list.length; i++) {
      const word = list[i];
      if (word === -1) continue;
      singles.add(this.singleOf(word));
      const next = list[i + 1] ?? -1;
      if (next !== -1) pairs.add(this.pairOf(word, next));
    }
    held = new Int32Array(2 * (pairs.size + singles.size));
    let at = 0;
    for (const id of pairs) [held[at++], held[at++]] = [id, -1];
    for (const id of singles) [held[at++], held[at++]] = [id, this.firstStem(id)];
    this.ofText.set(text, held);
    return held;
  }

  private wordOf(word: string): number {
    let number = this.wordNumbers.get(word);
    if (number !== undefined) return number;
    number = this.wordText.length;
    this.wordNumbers.set(word, number);
    this.wordText.push(word);
    const wordStem = stem(word);
    let stemNumber = this.stemIds.get(wordStem);
    if (stemNumber === undefined) this.stemIds.set(wordStem, (stemNumber = this.stemIds.size));
    this.wordStem.push(stemNumber);
    this.wordPhrase.push(-1);
    return number;
  }

  private singleOf(word: number): number {
    if (this.wordPhrase[word] === -1) this.wordPhrase[word] = this.added(word, -1);
    return this.wordPhrase[word];
  }

  private pairOf(first: number, second: number): number {
    return this.pairs.numberOf(first, second, () => this.added(first, second));
  }

  private added(first: number, second: number): number {
    if (this.count === this.first.length) {
      this.first = grown(this.first);
      this.second = grown(this.second);
    }
    this.first[this.count] = first;
    this.second[this.count] = second;
    return this.count++;
  }

  private forget(): void {
    this.ofText.clear();
    this.wordNumbers.clear();
    this.stemIds.clear();
    this.pairs.clear();
    for (const list of [this.wordText, this.wordStem, this.wordPhrase, this.shownTexts]) list.length = 0;
    this.count = 0;
  }
}

/** The numbers of two-word phrases by their words' numbers: open addressing over typed arrays, kept at most half full. */
class PairNumbers {
  private firsts = new Int32Array(8192).fill(-1);
  private seconds = new Int32Array(8192);
  private numbers = new Int32Array(8192);
  private size = 0;

  /** The pair's number; `add` numbers a pair met for the first time. */
  numberOf(first: number, second: number, add: () => number): number {
    let slot = this.slotOf(first, second);
    if (this.firsts[slot] !== -1) return this.numbers[slot];
    if (2 * (this.size + 1) > this.firsts.length) {
      this.grow();
      slot = this.slotOf(first, second);
    }
    this.firsts[slot] = first;
    this.seconds[slot] = second;
    this.numbers[slot] = add();
    this.size++;
    return this.numbers[slot];
  }

  clear(): void {
    this.firsts.fill(-1);
    this.size = 0;
  }

  /** The pair's slot, or the empty slot where it would go. */
  private slotOf(first: number, second: number): number {
    const mask = this.firsts.length - 1;
    let slot = (Math.imul(first, 0x9e3779b1) ^ Math.imul(second, 0x85ebca6b)) & mask;
    while (this.firsts[slot] !== -1 && (this.firsts[slot] !== first || this.seconds[slot] !== second)) slot = (slot + 1) & mask;
    return slot;
  }

  private grow(): void {
    const [firsts, seconds, numbers] = [this.firsts, this.seconds, this.numbers];
    this.firsts = new Int32Array(2 * firsts.length).fill(-1);
    this.seconds = new Int32Array(2 * firsts.length);
    this.numbers = new Int32Array(2 * firsts.length);
    for (let slot = 0; slot < firsts.length; slot++) {
      if (firsts[slot] === -1) continue;
      const to = this.slotOf(firsts[slot], seconds[slot]);
      this.firsts[to] = firsts[slot];
      this.seconds[to] = seconds[slot];
      this.numbers[to] = numbers[slot];
    }
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
 * Reads a text's phrases ahead of the searches that will show it (see readForSnippets), while the table holds fewer
 * than half the texts it keeps: false when it is that full (what searches read then keeps its room).
 */
export function readForRelated(text: string): boolean {
  if (phrases.heldTexts >= KEPT_TEXTS / 2) return false;
  phrases.ofAll([text]);
  return true;
}

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
    return spread.count(slot) >= 2 && !queryStems.has(phrases.firstStem(id)) && !queryStems.has(phrases.secondStem(id));
  });
  const order = (a: number, b: number) =>
    spread.count(b) - spread.count(a) ||
    Number(phrases.isPair(spread.phrase(b))) - Number(phrases.isPair(spread.phrase(a))) ||
    phrases.text(spread.phrase(a)).localeCompare(phrases.text(spread.phrase(b)));
  const chosen: string[] = [];
  // The first few in order usually fill the list: the rest are sorted only when they do not.
  let ranked = firstInOrder(widespread, order, FIRST_SORTED);
  for (let at = 0; at < widespread.length && chosen.length < count; at++) {
    if (at === ranked.length) ranked = widespread.sort(order);
    const id = spread.phrase(ranked[at]);
    const phrase = phrases.text(id);
    // A single word already inside a chosen pair adds nothing.
    if (!phrases.isPair(id) && chosen.some((c) => c.split(" ").includes(phrase))) continue;
    chosen.push(phrase);
  }
  const base = queryWords.join(" ");
  return chosen.map((phrase) => (base ? `${base} ${phrase}` : phrase));
}
