/**
 * Trending topics: the words of headlines (stemmed, stop words removed, as PostgreSQL's english configuration
 * makes them) whose headline count rose most from the previous window to this one. The score is the rise measured
 * in the previous count's own noise, (count - previous) / sqrt(previous + 1), like a Poisson z-score: a word going
 * from 40 to 60 headlines outranks one going from 0 to 3, and one going from 0 to 12 outranks both.
 */
export const MIN_TOPIC_HEADLINES = 3;

export interface TermCounts {
  lexeme: string;
  count: number;
  previous_count: number;
}

interface ScoredTerm extends TermCounts {
  score: number;
  growth: number;
}

export function scoreTerms(terms: readonly TermCounts[], limit: number): ScoredTerm[] {
  return terms
    .filter((t) => t.count >= MIN_TOPIC_HEADLINES && t.count > t.previous_count)
    .map((t) => ({
      ...t,
      score: (t.count - t.previous_count) / Math.sqrt(t.previous_count + 1),
      growth: Math.round(((t.count + 1) / (t.previous_count + 1)) * 100) / 100,
    }))
    .sort((a, b) => b.score - a.score || b.count - a.count || a.lexeme.localeCompare(b.lexeme))
    .slice(0, limit);
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/**
 * The word headlines use for a stem ("elect" -> "Election"): the most frequent word of the headlines that begins
 * with the stem (or with the stem minus its last letter, for "happi" -> "happy"), as spelt most often.
 */
export function surfaceForm(lexeme: string, headlines: readonly string[]): string {
  // Words counted case-insensitively; shown in their most frequent spelling (the first seen on a tie).
  const groups = new Map<string, { count: number; spellings: Map<string, number> }>();
  const stems = [lexeme, lexeme.length > 3 ? lexeme.slice(0, -1) : lexeme];
  for (const headline of headlines) {
    for (const match of headline.matchAll(WORD)) {
      const word = match[0].replace(/['’]s$/, "");
      const lowerWord = word.toLowerCase();
      if (!stems.some((s) => lowerWord.startsWith(s)) || lowerWord.length > lexeme.length + 4) continue;
      const group = groups.get(lowerWord) ?? { count: 0, spellings: new Map<string, number>() };
      group.count += 1;
      group.spellings.set(word, (group.spellings.get(word) ?? 0) + 1);
      groups.set(lowerWord, group);
    }
  }
  let best: { word: string; count: number; spellings: Map<string, number> } | null = null;
  for (const [word, group] of groups) {
    if (!best || group.count > best.count || (group.count === best.count && word.length < best.word.length)) best = { word, ...group };
  }
  if (!best) return lexeme;
  let spelling = best.word;
  let most = 0;
  for (const [form, count] of best.spellings) {
    if (count > most) [spelling, most] = [form, count];
  }
  return spelling;
}
