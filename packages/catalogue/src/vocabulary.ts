/**
 * The catalogue's vocabulary (`search_vocabulary`: every word of its text with the number of documents holding it)
 * held in memory, for typo correction without asking the database: the closest known word to a misspelt one by
 * pg_trgm's similarity (the share of trigrams two words have in common, at least pg_trgm's default threshold of
 * 0.3), the most frequent on a tie, then the first in byte order, exactly as prepareTextQuery's SQL chooses.
 *
 * Trigrams and similarity are pg_trgm's own (trigrams.ts). Only misspelt words of ASCII letters and digits are
 * corrected here: what a letter is beyond ASCII follows the database's locale, so such words are left to the
 * database. (A known word beyond ASCII, "café", is a candidate like any other: the vocabulary only holds words the
 * database's locale calls letters.)
 */
import { SIMILARITY_THRESHOLD, trigramRatio, trigramSet } from "./trigrams.js";

const ASCII_WORD = /^[a-z0-9]+$/;

export class Vocabulary {
  private readonly documents = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly trigramCounts: Uint16Array;
  private readonly byTrigram = new Map<number, number[]>();

  constructor(entries: Iterable<{ term: string; documents: number }>) {
    const counts: number[] = [];
    for (const { term, documents } of entries) {
      this.documents.set(term, documents);
      const id = this.terms.push(term) - 1;
      const trigrams = trigramSet(term);
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

  /** How many documents hold the word; undefined for a word the vocabulary does not hold. */
  documentsOf(word: string): number | undefined {
    return this.documents.get(word);
  }

  /** Whether `closest` can answer for this word (else the database must). */
  canCorrect(word: string): boolean {
    return ASCII_WORD.test(word);
  }

  /** The known word closest to `word`, or null when none reaches the threshold. `word` is lower case. */
  closest(word: string): string | null {
    const trigrams = trigramSet(word);
    const shared = new Map<number, number>();
    for (const trigram of trigrams) for (const id of this.byTrigram.get(trigram) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    let best: { term: string; score: number; documents: number } | null = null;
    for (const [id, count] of shared) {
      const score = trigramRatio(count, trigrams.length, this.trigramCounts[id]);
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
