/**
 * ROUGE-1, ROUGE-2 and ROUGE-L F1 as Google's rouge-score package computes them with use_stemmer=True: lower-case,
 * every run of characters other than a-z0-9 is a separator, Porter stemming of tokens longer than 3 characters;
 * ROUGE-L is the longest common subsequence over the whole summary (rouge-score's "rougeL"); ROUGE-Lsum is the
 * summary-level union LCS over sentences (rouge-score's "rougeLsum", the ROUGE-L that CNN/DailyMail papers report).
 */
import { createRequire } from "node:module";

// The Snowball stemmers are a dependency of the summarization service; the bench borrows its copy.
const require = createRequire(new URL("../../services/summarization/package.json", import.meta.url));
const snowball = require("snowball-stemmers") as { newStemmer(name: string): { stem(word: string): string } };
const porter = snowball.newStemmer("porter");

export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .split(" ")
    .filter((token) => token.length > 0)
    .map((token) => (token.length > 3 ? porter.stem(token) : token));
}

function ngrams(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i += 1) {
    const key = tokens.slice(i, i + n).join(" ");
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function f1(overlap: number, candidateTotal: number, referenceTotal: number): number {
  if (overlap === 0 || candidateTotal === 0 || referenceTotal === 0) return 0;
  const precision = overlap / candidateTotal;
  const recall = overlap / referenceTotal;
  return (2 * precision * recall) / (precision + recall);
}

function rougeN(candidate: string[], reference: string[], n: number): number {
  const c = ngrams(candidate, n);
  const r = ngrams(reference, n);
  let overlap = 0;
  for (const [gram, count] of c) overlap += Math.min(count, r.get(gram) ?? 0);
  return f1(overlap, Math.max(0, candidate.length - n + 1), Math.max(0, reference.length - n + 1));
}

function lcsTable(a: string[], b: string[]): number[][] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      table[i]![j] = a[i - 1] === b[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
    }
  }
  return table;
}

/** Positions in `a` of one longest common subsequence of a and b. */
function lcsPositions(a: string[], b: string[]): number[] {
  const table = lcsTable(a, b);
  const positions: number[] = [];
  let i = a.length;
  let j = b.length;
  while (i > 0 && j > 0) {
    if (a[i - 1] === b[j - 1]) {
      positions.push(i - 1);
      i -= 1;
      j -= 1;
    } else if (table[i - 1]![j]! >= table[i]![j - 1]!) i -= 1;
    else j -= 1;
  }
  return positions.reverse();
}

function tokenCounts(sentences: string[][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const sentence of sentences) for (const token of sentence) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

/** Summary-level LCS: for each reference sentence, the union of its LCS with every candidate sentence, hits clipped. */
function rougeLsum(candidate: string[][], reference: string[][]): number {
  const candidateLeft = tokenCounts(candidate);
  const referenceLeft = tokenCounts(reference);
  let hits = 0;
  for (const sentence of reference) {
    const union = new Set<number>();
    for (const other of candidate) for (const position of lcsPositions(sentence, other)) union.add(position);
    for (const position of [...union].sort((x, y) => x - y)) {
      const token = sentence[position]!;
      if ((candidateLeft.get(token) ?? 0) > 0 && (referenceLeft.get(token) ?? 0) > 0) {
        hits += 1;
        candidateLeft.set(token, candidateLeft.get(token)! - 1);
        referenceLeft.set(token, referenceLeft.get(token)! - 1);
      }
    }
  }
  const total = (sentences: string[][]) => sentences.reduce((sum, s) => sum + s.length, 0);
  return f1(hits, total(candidate), total(reference));
}

export interface RougeScores {
  rouge1: number;
  rouge2: number;
  rougeL: number;
  rougeLsum: number;
}

/** F1 scores of a candidate against a reference, each given as its list of sentences. */
export function rouge(candidateSentences: string[], referenceSentences: string[]): RougeScores {
  const cs = candidateSentences.map(rougeTokens);
  const rs = referenceSentences.map(rougeTokens);
  const c = cs.flat();
  const r = rs.flat();
  return {
    rouge1: rougeN(c, r, 1),
    rouge2: rougeN(c, r, 2),
    rougeL: f1(lcsTable(c, r)[c.length]![r.length]!, c.length, r.length),
    rougeLsum: rougeLsum(cs, rs),
  };
}
