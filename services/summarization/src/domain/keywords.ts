import type { LanguageTools } from "./languages.js";
import { round } from "./summarize.js";
import { isContentWord, tokens } from "./text.js";

interface KeyPhrase {
  phrase: string;
  /** RAKE score: the sum of its words' degree/frequency ratios. */
  score: number;
  /** How often the phrase occurs (stemmed, case-insensitive). */
  count: number;
}

/** Phrases longer than this are run-ons (lists, titles), not key phrases. */
const MAX_PHRASE_WORDS = 4;

interface Candidate {
  stems: string[];
  surface: string;
}

/**
 * Candidate phrases as RAKE defines them: maximal runs of content words, broken by stopwords, punctuation, numbers and
 * single letters. So a phrase never starts or ends with a stopword, and multi-word phrases come out whole.
 */
function candidates(text: string, tools: LanguageTools): Candidate[] {
  const found: Candidate[] = [];
  let stems: string[] = [];
  let start = -1;
  let end = -1;
  const close = () => {
    if (stems.length > 0 && stems.length <= MAX_PHRASE_WORDS) found.push({ stems, surface: text.slice(start, end) });
    stems = [];
  };
  for (const token of tokens(text, tools.language)) {
    const word = token.text.toLowerCase();
    if (!token.word || !isContentWord(word, tools)) {
      close();
      continue;
    }
    if (stems.length === 0) start = token.index;
    stems.push(tools.stem(word));
    end = token.index + token.text.length;
  }
  close();
  return found;
}

/**
 * RAKE (Rose et al., 2010): each content word scores degree/frequency (how many words it co-occurs with in candidate
 * phrases, over how often it occurs), a phrase scores the sum of its words. Ties go to the more frequent phrase, then
 * to the one that appears first. A phrase is shown as it is most often written.
 */
export function extractKeyPhrases(text: string, tools: LanguageTools, topN: number): KeyPhrase[] {
  const found = candidates(text, tools);
  const frequency = new Map<string, number>();
  const degree = new Map<string, number>();
  for (const { stems } of found) {
    for (const stem of stems) {
      frequency.set(stem, (frequency.get(stem) ?? 0) + 1);
      degree.set(stem, (degree.get(stem) ?? 0) + stems.length);
    }
  }
  const phrases = new Map<string, { stems: string[]; count: number; first: number; surfaces: Map<string, number> }>();
  found.forEach(({ stems, surface }, position) => {
    const key = stems.join(" ");
    const entry = phrases.get(key) ?? { stems, count: 0, first: position, surfaces: new Map<string, number>() };
    entry.count += 1;
    entry.surfaces.set(surface, (entry.surfaces.get(surface) ?? 0) + 1);
    phrases.set(key, entry);
  });
  return [...phrases.values()]
    .map((entry) => ({
      phrase: mostCommon(entry.surfaces),
      score: entry.stems.reduce((sum, stem) => sum + degree.get(stem)! / frequency.get(stem)!, 0),
      count: entry.count,
      first: entry.first,
    }))
    .sort((a, b) => b.score - a.score || b.count - a.count || a.first - b.first)
    .slice(0, topN)
    .map(({ phrase, score, count }) => ({ phrase, score: round(score, 4), count }));
}

function mostCommon(surfaces: Map<string, number>): string {
  let best = "";
  let bestCount = 0;
  for (const [surface, count] of surfaces) {
    if (count > bestCount) {
      best = surface;
      bestCount = count;
    }
  }
  return best;
}
