/**
 * Spelling: a word of the query is corrected (searched as another word, `showing_results_for`) only when no document
 * of the index holds it: prepareTextQuery's rule, so a query whose words all exist is searched as written ("python
 * list comprehension" stays itself although "comprehension" is in one biography and "comprehensive" in many). A known
 * but rare word (held by at most RARE_DOCUMENTS documents; "cofee" is in one coffee post) that is no English word
 * and that a very similar word (trigram similarity at least RARE_SIMILARITY) held by at least RARE_RATIO times more
 * documents resembles is only suggested (`spelling_fix`, Google's "Did you mean"), never substituted.
 */
import { prepareTextQuery, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { isEnglishWord } from "./english-words.js";
import type { SearchCatalogue } from "./search-catalogue.js";

export const RARE_DOCUMENTS = 3;
const RARE_SIMILARITY = 0.6;
const RARE_RATIO = 20;
const WORD = /[\p{L}\p{N}]+/gu;

/** The query as searched: words no document holds replaced by the closest word of the index's vocabulary. */
export async function correctedQuery(db: Queryable, q: string, catalogue?: SearchCatalogue): Promise<TextQuery> {
  return catalogue ? await catalogue.entries.prepare(q) : await prepareTextQuery(db, q);
}

/**
 * The query with its rare words replaced by much more frequent look-alikes, or null when none is. With the catalogue,
 * the database is asked only when a word is rare (the words it holds in memory, as of its last reading, say so) and
 * only once per word while those rows are held: the answers are kept with them.
 */
export async function spellingSuggestion(db: Queryable, prepared: TextQuery, catalogue?: SearchCatalogue): Promise<string | null> {
  const words = [...new Set([...prepared.text.matchAll(WORD)].map((m) => m[0].toLowerCase()))].filter((w) => w.length >= 4 && w !== "or" && !isEnglishWord(w));
  if (words.length === 0) return null;
  const vocabulary = catalogue?.entries.vocabulary();
  if (vocabulary && !words.some((word) => (vocabulary.documentsOf(word) ?? Infinity) <= RARE_DOCUMENTS)) return null;
  const known = catalogue?.suggestions() ?? new Map<string, string | null>();
  const asked = words.filter((word) => !known.has(word));
  if (asked.length > 0) {
    const { rows } = await db.query<{ word: string; suggestion: string | null }>(
      `SELECT v.term AS word,
         (SELECT s.term FROM search_vocabulary s
           WHERE s.term % v.term AND similarity(s.term, v.term) >= $2 AND s.documents >= v.documents * $3
           ORDER BY similarity(s.term, v.term) DESC, s.documents DESC, s.term LIMIT 1) AS suggestion
       FROM search_vocabulary v WHERE v.term = ANY($1::text[]) AND v.documents <= $4`,
      [asked, RARE_SIMILARITY, RARE_RATIO, RARE_DOCUMENTS],
    );
    for (const word of asked) known.set(word, rows.find((row) => row.word === word)?.suggestion ?? null);
  }
  let text = prepared.text;
  for (const word of [...words].sort()) {
    const suggestion = known.get(word);
    if (suggestion) text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, "giu"), suggestion);
  }
  if (text === prepared.text) return null;
  return [text, ...prepared.prefixes.map((p) => `${p}*`)].join(" ").trim();
}
