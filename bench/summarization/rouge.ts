/**
 * ROUGE-1, ROUGE-2, ROUGE-L and ROUGE-Lsum F1 exactly as Google's rouge-score computes them with use_stemmer=True
 * (google-research/google-research, rouge/rouge_scorer.py), so that figures from here compare with published ones:
 * - tokens: the text lower-cased, every run of characters other than a-z and 0-9 a separator, tokens longer than 3
 *   characters stemmed by NLTK's Porter stemmer (./porter.ts);
 * - ROUGE-N: clipped n-gram overlap; ROUGE-L: the longest common subsequence over the whole text (sentences joined);
 * - ROUGE-Lsum: the summary-level LCS of Lin (2004) over sentences separated by newlines, each reference sentence's
 *   union LCS with the candidate sentences, hits clipped by token counts as ROUGE-1.5.5 does. This is the "ROUGE-L"
 *   that CNN/DailyMail papers report.
 * bench/summarization/rouge-crosscheck.py scores the same outputs with rouge-score itself.
 */
import { seededRandom } from "@apiplat/testing";
import { porterStem } from "./porter.js";

export interface RougeScores {
  rouge1: number;
  rouge2: number;
  rougeL: number;
  rougeLsum: number;
}

export const ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"] as const satisfies readonly (keyof RougeScores)[];

/** rouge-score's tokenizer: lower-case, a-z0-9 runs, Porter stems of tokens over 3 characters. */
export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(/\s+/)
    .filter((token) => token.length > 0)
    .map((token) => (token.length > 3 ? porterStem(token) : token));
}

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i += 1) {
    const key = tokens.slice(i, i + n).join(" ");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function rougeN(target: string[], prediction: string[], n: number): number {
  const targetGrams = ngramCounts(target, n);
  const predictionGrams = ngramCounts(prediction, n);
  let overlap = 0;
  for (const [gram, count] of targetGrams) overlap += Math.min(count, predictionGrams.get(gram) ?? 0);
  const total = (grams: Map<string, number>) => [...grams.values()].reduce((sum, c) => sum + c, 0);
  return fmeasure(overlap / Math.max(total(predictionGrams), 1), overlap / Math.max(total(targetGrams), 1));
}

/** table[i][j]: LCS length of ref[0..i) and can[0..j). */
function lcsTable(ref: string[], can: string[]): Int32Array[] {
  const table = Array.from({ length: ref.length + 1 }, () => new Int32Array(can.length + 1));
  for (let i = 1; i <= ref.length; i += 1) {
    const row = table[i]!;
    const above = table[i - 1]!;
    for (let j = 1; j <= can.length; j += 1) {
      row[j] = ref[i - 1] === can[j - 1] ? above[j - 1]! + 1 : Math.max(above[j]!, row[j - 1]!);
    }
  }
  return table;
}

function rougeL(target: string[], prediction: string[]): number {
  if (target.length === 0 || prediction.length === 0) return 0;
  const lcs = lcsTable(target, prediction)[target.length]![prediction.length]!;
  return fmeasure(lcs / prediction.length, lcs / target.length);
}

/** Positions in `ref` of one LCS with `can`, read back as rouge-score does (ties move up in `ref`). */
function lcsPositions(ref: string[], can: string[]): number[] {
  const table = lcsTable(ref, can);
  const positions: number[] = [];
  let i = ref.length;
  let j = can.length;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      positions.push(i - 1);
      i -= 1;
      j -= 1;
    } else if (table[i]![j - 1]! > table[i - 1]![j]!) j -= 1;
    else i -= 1;
  }
  return positions.reverse();
}

function tokenCounts(sentences: string[][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const sentence of sentences) for (const token of sentence) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

function rougeLsum(target: string[][], prediction: string[][]): number {
  const m = target.reduce((sum, s) => sum + s.length, 0);
  const n = prediction.reduce((sum, s) => sum + s.length, 0);
  if (m === 0 || n === 0) return 0;
  const targetLeft = tokenCounts(target);
  const predictionLeft = tokenCounts(prediction);
  let hits = 0;
  for (const sentence of target) {
    const union = new Set<number>();
    for (const other of prediction) for (const position of lcsPositions(sentence, other)) union.add(position);
    for (const position of [...union].sort((a, b) => a - b)) {
      const token = sentence[position]!;
      if ((predictionLeft.get(token) ?? 0) > 0 && (targetLeft.get(token) ?? 0) > 0) {
        hits += 1;
        predictionLeft.set(token, predictionLeft.get(token)! - 1);
        targetLeft.set(token, targetLeft.get(token)! - 1);
      }
    }
  }
  return fmeasure(hits / n, hits / m);
}

/** Sentences of a text as ROUGE-Lsum reads them: one a line, empty lines dropped. */
function lines(text: string): string[] {
  return text.split("\n").filter((line) => line.length > 0);
}

/** F1 of `prediction` against `target`, each a text with one sentence a line (rouge-score's score(target, prediction)). */
export function rouge(target: string, prediction: string): RougeScores {
  const t = rougeTokens(target);
  const p = rougeTokens(prediction);
  return {
    rouge1: rougeN(t, p, 1),
    rouge2: rougeN(t, p, 2),
    rougeL: rougeL(t, p),
    rougeLsum: rougeLsum(lines(target).map(rougeTokens), lines(prediction).map(rougeTokens)),
  };
}

/** Against several references, each measure's best F1 (rouge-score's score_multi). */
export function rougeMulti(targets: readonly string[], prediction: string): RougeScores {
  const all = targets.map((target) => rouge(target, prediction));
  const best = (key: keyof RougeScores) => Math.max(...all.map((scores) => scores[key]));
  return { rouge1: best("rouge1"), rouge2: best("rouge2"), rougeL: best("rougeL"), rougeLsum: best("rougeLsum") };
}

/** Mean F1 x 100 of each measure over a list of scores. */
export function meanScores(scores: readonly RougeScores[]): RougeScores {
  const mean = (key: keyof RougeScores) => (100 * scores.reduce((sum, s) => sum + s[key], 0)) / Math.max(scores.length, 1);
  return { rouge1: mean("rouge1"), rouge2: mean("rouge2"), rougeL: mean("rougeL"), rougeLsum: mean("rougeLsum") };
}

/**
 * The 95 % percentile bootstrap interval of each measure's mean (x 100) over `scores`: 2,000 resamples drawn by a
 * fixed-seed generator, so that a rerun prints the same interval.
 */
export function bootstrapInterval(scores: readonly RougeScores[], resamples = 2_000): Record<keyof RougeScores, [number, number]> {
  const random = seededRandom(0x9e3779b9);
  const means = Array.from({ length: resamples }, () => meanScores(Array.from({ length: scores.length }, () => scores[Math.floor(random() * scores.length)]!)));
  const bounds = (key: keyof RougeScores): [number, number] => {
    const sorted = means.map((m) => m[key]).sort((a, b) => a - b);
    return [sorted[Math.floor(0.025 * (resamples - 1))]!, sorted[Math.ceil(0.975 * (resamples - 1))]!];
  };
  return { rouge1: bounds("rouge1"), rouge2: bounds("rouge2"), rougeL: bounds("rougeL"), rougeLsum: bounds("rougeLsum") };
}
