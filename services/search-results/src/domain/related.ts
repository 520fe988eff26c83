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

/** A phrase of a result's text that could become a related search, with the stems of its words. */
interface TextPhrase {
  phrase: string;
  stems: string[];
}

/** What related searches read of one text: its phrases, each once. */
interface TextPhrases {
  /** Adjacent pairs of useful words (long enough, not stop words, not numbers). */
  pairs: TextPhrase[];
  /** Useful single words. */
  singles: TextPhrase[];
}

/**
 * The phrases of each text, kept: the best results of one search are often those of the next, and splitting and
 * stemming their texts was most of the cost of related searches. Forgotten wholesale when it grows past its bound.
 */
const textPhrases = new Map<string, TextPhrases>();
const KEPT_TEXTS = 20_000;

function phrasesOfText(text: string): TextPhrases {
  let phrases = textPhrases.get(text);
  if (phrases) return phrases;
  const list = words(text).map((word) => ({ word, stem: stem(word), useful: word.length >= 3 && !STOP_WORDS.has(word) && !/^\d+$/.test(word) }));
  const pairs = new Map<string, TextPhrase>();
  const singles = new Map<string, TextPhrase>();
  for (let i = 0; i < list.length; i++) {
    const { word, stem, useful } = list[i];
    if (!useful) continue;
    singles.set(word, { phrase: word, stems: [stem] });
    const next = list[i + 1];
    if (next?.useful) pairs.set(`${word} ${next.word}`, { phrase: `${word} ${next.word}`, stems: [stem, next.stem] });
  }
  phrases = { pairs: [...pairs.values()], singles: [...singles.values()] };
  if (textPhrases.size >= KEPT_TEXTS) textPhrases.clear();
  textPhrases.set(text, phrases);
  return phrases;
}

/**
 * Up to `count` related queries for `query` from the texts of its best results: phrases found in at least two of the
 * texts, most widespread first (pairs before single words at equal spread), ties in alphabetical order.
 */
export function relatedQueries(query: string, texts: readonly string[], count = 8): string[] {
  const queryWords = words(query).filter((w) => !STOP_WORDS.has(w));
  const queryStems = new Set(words(query).map(stem));
  const spread = new Map<string, { documents: number; pair: boolean }>();
  const tally = (phrase: TextPhrase, pair: boolean) => {
    if (phrase.stems.some((stem) => queryStems.has(stem))) return;
    const seen = spread.get(phrase.phrase);
    if (seen) seen.documents++;
    else spread.set(phrase.phrase, { documents: 1, pair });
  };
  for (const text of texts) {
    const { pairs, singles } = phrasesOfText(text);
    for (const pair of pairs) tally(pair, true);
    for (const single of singles) tally(single, false);
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
