import type { LanguageTools } from "./languages.js";
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

export interface SelectionOptions {
  count: number;
  style?: Style;
  /** Weight of the position prior against centrality, 0..1. */
  positionWeight?: number;
  /** Sentences outside these word counts are picked only when too few others remain (fragments, run-ons). */
  minWords?: number;
  maxWords?: number;
}

export interface ScoredSentence {
  index: number;
  text: string;
  /** The sentence's final score, 0..1 (1 = the best sentence of the source). */
  score: number;
}

/** Tuned on the ROUGE sample (bench/summarization): see docs/performance/summarization.md. */
export const DEFAULT_POSITION_WEIGHT = 0.5;
const MMR_LAMBDA = 0.7;
/** Cosine similarity at which a sentence restates one already picked. */
const REDUNDANCY = 0.5;
const MIN_WORDS = 5;
const MAX_WORDS = 80;

/** The similarity graph is quadratic in its sentences; past this many, only sentences of summary length enter it. */
export const MAX_GRAPH_SENTENCES = 800;

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
  return picked
    .sort((a, b) => a - b)
    .map((i) => ({ index: sentences[i]!.index, text: restyle(sentences[i]!.text, options.style, tools.language), score: round(scores[i]!, 4) }));
}

function graphPositions(all: readonly AnalyzedSentence[], fits: (sentence: AnalyzedSentence) => boolean): number[] {
  const every = all.map((_, position) => position);
  if (all.length <= MAX_GRAPH_SENTENCES) return every;
  const fitting = every.filter((position) => fits(all[position]!));
  return (fitting.length > 0 ? fitting : every).slice(0, MAX_GRAPH_SENTENCES);
}

/** About the square root of the source's sentence count, within [min, max]: 9 sentences give 3, 25 or more give 5. */
export function summaryLength(sourceSentences: number, min: number, max: number): number {
  return Math.min(sourceSentences, Math.max(min, Math.min(max, Math.round(Math.sqrt(sourceSentences)))));
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
