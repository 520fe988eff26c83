/**
 * The catalogue's vocabulary (`search_vocabulary`: every word of its text with the number of documents holding it)
 * held in memory, for typo correction without asking the database: the closest known word to a misspelt one by
 * pg_trgm's similarity (the share of trigrams two words have in common, at least pg_trgm's default threshold of
 * 0.3), the most frequent on a tie, then the first in byte order, exactly as prepareTextQuery's SQL chooses.
 *
 * pg_trgm's trigrams of a word: lower case, padded with two spaces before and one after, every run of three
 * characters, each counted once. Only misspelt words of ASCII letters and digits are corrected here: pg_trgm's notion
 * of a letter beyond ASCII follows the database's locale, so such words are left to the database. (A known word
 * beyond ASCII, "café", is a candidate like any other: the vocabulary only holds words its locale calls letters.)
 * pg_trgm hashes a trigram of more than three bytes into three; a collision of two such hashes is possible there
 * and not here, and has never been seen in these catalogues.
 */

/** pg_trgm.similarity_threshold's default. */
const SIMILARITY_THRESHOLD = 0.3;
const ASCII_WORD = /^[a-z0-9]+$/;

/** A word's trigrams, by characters (code points). */
export function trigramsOf(word: string): string[] {
  const chars = [" ", " ", ...word, " "];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) trigrams.add(chars[i] + chars[i + 1] + chars[i + 2]);
  return [...trigrams];
}

/** pg_trgm's similarity as it returns it: float4. */
function similarity(shared: number, a: number, b: number): number {
  return Math.fround(shared / (a + b - shared));
}

export class Vocabulary {
  private readonly documents = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly trigramCounts: Uint16Array;
  private readonly byTrigram = new Map<string, number[]>();

  constructor(entries: Iterable<{ term: string; documents: number }>) {
    const counts: number[] = [];
    for (const { term, documents } of entries) {
      this.documents.set(term, documents);
      const id = this.terms.push(term) - 1;
      const trigrams = trigramsOf(term);
      counts.push(trigrams.length);
      for (const trigram of trigrams) {
        const list = this.byTrigram.get(trigram);
        if (list) list.push(id);
        else this.byTrigram.set(trigram, [id]);
      }
    }
    this.trigramCounts = Uint16Array.from(counts);
  }

  has(word: string): boolean {
    return this.documents.has(word);
  }

  /** Whether `closest` can answer for this word (else the database must). */
  canCorrect(word: string): boolean {
    return ASCII_WORD.test(word);
  }

  /** The known word closest to `word`, or null when none reaches the threshold. `word` is lower case. */
  closest(word: string): string | null {
    const trigrams = trigramsOf(word);
    const shared = new Map<number, number>();
    for (const trigram of trigrams) for (const id of this.byTrigram.get(trigram) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    let best: { term: string; score: number; documents: number } | null = null;
    for (const [id, count] of shared) {
      const score = similarity(count, trigrams.length, this.trigramCounts[id]);
      if (score < SIMILARITY_THRESHOLD) continue;
      const term = this.terms[id];
      const documents = this.documents.get(term)!;
      if (!best || score > best.score || (score === best.score && (documents > best.documents || (documents === best.documents && term < best.term)))) {
        best = { term, score, documents };
      }
    }
    return best?.term ?? null;
  }
}
