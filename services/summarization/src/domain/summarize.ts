import type { LanguageTools } from "./languages.js";
import { looksLikeNews } from "./news.js";
import { lexRank, positionPrior, selectMmr, similarityMatrix, tfidfVectors } from "./rank.js";
import { splitSentences, type SourceSentence } from "./sentences.js";
import { restyle, styleWeight, type Style } from "./styles.js";
import { contentTerms, words } from "./text.js";

export interface AnalyzedSentence extends SourceSentence {
  words: number;
  terms: string[];
}

export function analyze(text: string, tools: LanguageTools): AnalyzedSentence[] {
  return splitSentences(text, tools).map((sentence) => {
    const wordList = words(sentence.text, tools.language);
    return { ...sentence, words: wordList.length, terms: contentTerms(wordList, tools) };
  });
}

interface SelectionOptions {
  count: number;
  style?: Style;
  /** Weight of the position prior against centrality, 0..1. */
  positionWeight?: number;
  /** Sentences outside these word counts are picked only when too few others remain (fragments, run-ons). */
  minWords?: number;
  maxWords?: number;
  /**
   * A length in words: picking stops once the sentences picked so far reach it, provided `minCount` are picked
   * (`count` stays the most).
   */
  wordBudget?: number;
  minCount?: number;
}

export interface ScoredSentence {
  index: number;
  text: string;
  /** The sentence's final score, 0..1 (1 = the best sentence of the source). */
  score: number;
}

/** The position prior's weight for bullet points and the chunks of long input, which the news rule does not tune. */
const DEFAULT_POSITION_WEIGHT = 0.5;
/**
 * The position prior's weight in a summary of news-like text and of anything else (./news.ts), chosen on the
 * development splits of the ROUGE samples (bench/summarization/tune.ts, docs/performance/summarization.md).
 */
export const NEWS_POSITION_WEIGHT = 0.8;
export const GENERAL_POSITION_WEIGHT = 0.3;
/**
 * News takes at most three sentences (its lead, as Lead-3 does) and stops at two when those reach 60 words (news
 * highlights run about 55); other text takes about 3 x sqrt(words) words (see summaryLength).
 */
export const NEWS_SENTENCES = 3;
export const NEWS_WORD_BUDGET = 60;
export const WORDS_PER_SQRT_WORD = 3;
const MMR_LAMBDA = 0.7;
/** Cosine similarity at which a sentence restates one already picked. */
const REDUNDANCY = 0.5;
const MIN_WORDS = 5;
const MAX_WORDS = 80;

/** The similarity graph is quadratic in its sentences; past this many, only sentences of summary length enter it. */
const MAX_GRAPH_SENTENCES = 800;

/**
 * Scores every sentence (centrality by LexRank, scaled to 0..1, blended with the position prior, times the style's
 * weight), picks `count` with MMR and returns them in document order, restyled. An input of more than
 * MAX_GRAPH_SENTENCES sentences (4,096 tokens of one-word lines, say) is ranked over its sentences of 5 to 80 words,
 * the first MAX_GRAPH_SENTENCES of them, so that no input costs more than that graph.
 */
export function selectSentences(all: readonly AnalyzedSentence[], tools: LanguageTools, options: SelectionOptions): ScoredSentence[] {
  if (all.length === 0) return [];
  const minWords = options.minWords ?? MIN_WORDS;
  const maxWords = options.maxWords ?? MAX_WORDS;
  const fits = (sentence: AnalyzedSentence) => sentence.words >= minWords && sentence.words <= maxWords;
  const positions = graphPositions(all, fits);
  const sentences = positions.map((position) => all[position]!);
  const n = sentences.length;
  const matrix = similarityMatrix(tfidfVectors(sentences.map((s) => s.terms)));
  const centrality = lexRank(matrix, n);
  const topCentrality = Math.max(...centrality);
  const positionWeight = options.positionWeight ?? DEFAULT_POSITION_WEIGHT;
  const raw = sentences.map((sentence, i) => {
    const blended = (1 - positionWeight) * (centrality[i]! / topCentrality) + positionWeight * positionPrior(positions[i]!);
    return blended * styleWeight(sentence.text, sentence.words, options.style, tools.language);
  });
  const top = Math.max(...raw);
  const scores = raw.map((score) => (top > 0 ? score / top : 0));
  const eligible = (i: number) => fits(sentences[i]!);
  const picked = selectMmr(scores, matrix, { count: Math.min(options.count, n), lambda: MMR_LAMBDA, eligible, redundancy: REDUNDANCY });
  return withinBudget(picked, (i) => sentences[i]!.words, options)
    .sort((a, b) => a - b)
    .map((i) => ({ index: sentences[i]!.index, text: restyle(sentences[i]!.text, options.style, tools.language), score: round(scores[i]!, 4) }));
}

/** The first picks (in the order picked) that reach the word budget, and at least minCount of them. */
function withinBudget(picked: number[], wordsOf: (i: number) => number, options: SelectionOptions): number[] {
  if (options.wordBudget === undefined) return picked;
  let words = 0;
  for (let k = 0; k < picked.length; k += 1) {
    words += wordsOf(picked[k]!);
    if (k + 1 >= (options.minCount ?? 1) && words >= options.wordBudget) return picked.slice(0, k + 1);
  }
  return picked;
}

function graphPositions(all: readonly AnalyzedSentence[], fits: (sentence: AnalyzedSentence) => boolean): number[] {
  const every = all.map((_, position) => position);
  if (all.length <= MAX_GRAPH_SENTENCES) return every;
  const fitting = every.filter((position) => fits(all[position]!));
  return (fitting.length > 0 ? fitting : every).slice(0, MAX_GRAPH_SENTENCES);
}

/**
 * How many sentences a summary takes at most within [min, max] (and never more than the source has): a news-like
 * text three, any other about 3 x sqrt(words) words' worth at the source's average sentence length, that is
 * round(3 x sentences / sqrt(words)): 7 sentences of 170 words give 2, 32 sentences of 500 words give 4.
 */
export function summaryLength(source: { sentences: number; words: number; news: boolean }, min: number, max: number): number {
  const wanted = source.news ? NEWS_SENTENCES : Math.round((WORDS_PER_SQRT_WORD * source.sentences) / Math.sqrt(Math.max(source.words, 1)));
  return Math.min(source.sentences, Math.max(min, Math.min(max, wanted)));
}

interface SummaryPlan {
  news: boolean;
  count: number;
  positionWeight: number;
  /** News only: stop under `count` once this many words are picked (never under `minCount`). */
  wordBudget?: number;
  minCount: number;
}

/** The length and the position prior's weight of a summary of `sentences` within [min, max]. */
export function summaryPlan(sentences: readonly AnalyzedSentence[], tools: LanguageTools, bounds: { min: number; max: number }): SummaryPlan {
  const news = looksLikeNews(
    sentences.map((s) => s.text),
    tools.language,
  );
  const words = sentences.reduce((sum, s) => sum + s.words, 0);
  return {
    news,
    count: summaryLength({ sentences: sentences.length, words, news }, bounds.min, bounds.max),
    positionWeight: news ? NEWS_POSITION_WEIGHT : GENERAL_POSITION_WEIGHT,
    ...(news ? { wordBudget: NEWS_WORD_BUDGET } : {}),
    minCount: bounds.min,
  };
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
