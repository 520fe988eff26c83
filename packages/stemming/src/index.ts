/**
 * Snowball stemmers (snowball-stemmers, the algorithms PostgreSQL's `<language>_stem` dictionaries use), by algorithm
 * name: `english`, `french`, `german`... as PostgreSQL names its text-search configurations. Text repeats its words
 * and the stemmers are their users' hot path, so each keeps its stems, up to STEM_CACHE_LIMIT words; a user that keeps
 * its own table of the words it met asks for `uncachedStemmerOf` instead, and the words are not held twice.
 */
import { createRequire } from "node:module";

interface Stemmer {
  stem(word: string): string;
}

const require = createRequire(import.meta.url);
const snowball = require("snowball-stemmers") as { algorithms(): string[]; newStemmer(algorithm: string): Stemmer };
const ALGORITHMS = new Set(snowball.algorithms());

const STEM_CACHE_LIMIT = 100_000;
const stemmers = new Map<string, (word: string) => string>();
const uncachedStemmers = new Map<string, (word: string) => string>();

/** The stemmer of a Snowball algorithm, for lower-cased words; an unknown name (`simple`) keeps the word as it is. */
export function stemmerOf(algorithm: string): (word: string) => string {
  return made(stemmers, algorithm, cachedStemmer);
}

/** As stemmerOf, without keeping the stems it gave. */
export function uncachedStemmerOf(algorithm: string): (word: string) => string {
  return made(uncachedStemmers, algorithm, (stemmer) => (word) => stemmer.stem(word));
}

function made(kept: Map<string, (word: string) => string>, algorithm: string, wrap: (stemmer: Stemmer) => (word: string) => string) {
  let stem = kept.get(algorithm);
  if (stem) return stem;
  stem = ALGORITHMS.has(algorithm) ? wrap(snowball.newStemmer(algorithm)) : (word: string) => word;
  kept.set(algorithm, stem);
  return stem;
}

function cachedStemmer(stemmer: Stemmer): (word: string) => string {
  const cache = new Map<string, string>();
  return (word) => {
    let stemmed = cache.get(word);
    if (stemmed === undefined) {
      stemmed = stemmer.stem(word);
      if (cache.size >= STEM_CACHE_LIMIT) cache.clear();
      cache.set(word, stemmed);
    }
    return stemmed;
  };
}
