/**
 * Typo tolerance over the catalogue's: prepareTextQuery corrects words no document contains; a word that a page or
 * two misspell the same way ("cofee" is in one coffee post) is known, though, and would find only those pages. So a
 * word held by at most RARE_DOCUMENTS documents is also replaced by a very similar word (trigram similarity at least
 * RARE_SIMILARITY) that at least RARE_RATIO times more documents hold.
 */
import { prepareTextQuery, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import type { SearchCatalogue } from "./search-catalogue.js";

export const RARE_DOCUMENTS = 3;
const RARE_SIMILARITY = 0.6;
const RARE_RATIO = 20;
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * With the catalogue, the database is asked only when a word is unknown or rare: the words it holds in memory (as of
 * its last reading) say so.
 */
export async function correctedQuery(db: Queryable, q: string, catalogue?: SearchCatalogue): Promise<TextQuery> {
  const prepared = catalogue ? await catalogue.entries.prepare(q) : await prepareTextQuery(db, q);
  const words = [...new Set([...prepared.text.matchAll(WORD)].map((m) => m[0].toLowerCase()))].filter((w) => w.length >= 4 && w !== "or");
  if (words.length === 0) return prepared;
  const rareWords = catalogue?.rareWords();
  if (rareWords && !words.some((word) => rareWords.has(word))) return prepared;
  const { rows } = await db.query<{ word: string; suggestion: string | null }>(
    `SELECT v.term AS word,
       (SELECT s.term FROM search_vocabulary s
         WHERE s.term % v.term AND similarity(s.term, v.term) >= $2 AND s.documents >= v.documents * $3
         ORDER BY similarity(s.term, v.term) DESC, s.documents DESC, s.term LIMIT 1) AS suggestion
     FROM search_vocabulary v WHERE v.term = ANY($1::text[]) AND v.documents <= $4`,
    [words, RARE_SIMILARITY, RARE_RATIO, RARE_DOCUMENTS],
  );
  let text = prepared.text;
  for (const { word, suggestion } of rows) {
    if (suggestion) text = text.replace(new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, "giu"), suggestion);
  }
  if (text === prepared.text) return prepared;
  return { text, prefixes: prepared.prefixes, corrected: [text, ...prepared.prefixes.map((p) => `${p}*`)].join(" ").trim() };
}
