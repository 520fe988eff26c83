/**
 * Snowball stemmers (snowball-stemmers, the algorithms PostgreSQL's `<language>_stem` dictionaries use), by algorithm
 * name: `english`, `french`, `german`... as PostgreSQL names its text-search configurations. Text repeats its words
 * and the stemmers are their users' hot path, so each keeps its stems, up to STEM_CACHE_LIMIT words.
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

/** The stemmer of a Snowball algorithm, for lower-cased words; an unknown name (`simple`) keeps the word as it is. */
export function stemmerOf(algorithm: string): (word: string) => string {
  let stem = stemmers.get(algorithm);
  if (stem) return stem;
  stem = ALGORITHMS.has(algorithm) ? cachedStemmer(snowball.newStemmer(algorithm)) : (word) => word;
  stemmers.set(algorithm, stem);
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
