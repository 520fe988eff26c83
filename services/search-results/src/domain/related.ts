/**
 * Related searches from co-occurring phrases: the two-word phrases (then single words) that recur most across the
 * titles and opening text of the best results, other than the query's own words, each appended to the query.
 */

const STOP_WORDS = new Set(
  ("a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other " +
    "our ours out over own same she should so some such than that the their theirs them then there these they this those " +
    "through to too under until up very was we were what when where which while who whom why will with would you your " +
    "yours also one two get got use used using can't don't does doesn't is there what's i'm it's way much many make like").split(" "),
);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

function words(text: string): string[] {
  return [...text.toLowerCase().matchAll(WORD)].map((m) => m[0].replace(/['’-]+$/, ""));
}

/** Crude English stemming for comparing with the query: "coffees" and "coffee" are the same word here. */
function stem(word: string): string {
  return word.replace(/(ies|es|s|ing|ed)$/, "");
}

/** A word of a result's text, with what deciding its use needs. */
interface TextWord {
  word: string;
  stem: string;
  /** Long enough, not a stop word, not a number: useful unless it is one of the query's words. */
  candidate: boolean;
}

/**
 * The words of each text, kept: the best results of one search are often those of the next, and splitting and
 * stemming their texts was most of the cost of related searches. Forgotten wholesale when it grows past its bound.
 */
const textWords = new Map<string, TextWord[]>();
const KEPT_TEXTS = 20_000;

function wordsOfText(text: string): TextWord[] {
  let list = textWords.get(text);
  if (list) return list;
  list = words(text).map((word) => ({ word, stem: stem(word), candidate: word.length >= 3 && !STOP_WORDS.has(word) && !/^\d+$/.test(word) }));
  if (textWords.size >= KEPT_TEXTS) textWords.clear();
  textWords.set(text, list);
  return list;
}

/** Phrases of one text: adjacent useful words (pairs) and useful single words, each counted once per text. */
function phrasesOf(text: string, queryStems: Set<string>): { pairs: Set<string>; singles: Set<string> } {
  const list = wordsOfText(text);
  const useful = (word: TextWord) => word.candidate && !queryStems.has(word.stem);
  const pairs = new Set<string>();
  const singles = new Set<string>();
  for (let i = 0; i < list.length; i++) {
    if (!useful(list[i])) continue;
    singles.add(list[i].word);
    if (i + 1 < list.length && useful(list[i + 1])) pairs.add(`${list[i].word} ${list[i + 1].word}`);
  }
  return { pairs, singles };
}

/**
 * Up to `count` related queries for `query` from the texts of its best results: phrases found in at least two of the
 * texts, most widespread first (pairs before single words at equal spread), ties in alphabetical order.
 */
export function relatedQueries(query: string, texts: readonly string[], count = 8): string[] {
  const queryWords = words(query).filter((w) => !STOP_WORDS.has(w));
  const queryStems = new Set(words(query).map(stem));
  const spread = new Map<string, { documents: number; pair: boolean }>();
  for (const text of texts) {
    const { pairs, singles } = phrasesOf(text, queryStems);
    const count = (phrase: string, pair: boolean) => {
      const seen = spread.get(phrase);
      if (seen) seen.documents++;
      else spread.set(phrase, { documents: 1, pair });
    };
    for (const pair of pairs) count(pair, true);
    for (const single of singles) count(single, false);
  }
  const ranked = [...spread.entries()]
    .filter(([, s]) => s.documents >= 2)
    .sort(([a, x], [b, y]) => y.documents - x.documents || Number(y.pair) - Number(x.pair) || a.localeCompare(b));
  const chosen: string[] = [];
  for (const [phrase] of ranked) {
    // A single word already inside a chosen pair adds nothing.
    if (!phrase.includes(" ") && chosen.some((c) => c.split(" ").includes(phrase))) continue;
    chosen.push(phrase);
    if (chosen.length === count) break;
  }
  const base = queryWords.join(" ");
  return chosen.map((phrase) => (base ? `${base} ${phrase}` : phrase));
}
