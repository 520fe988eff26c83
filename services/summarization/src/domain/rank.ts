/**
 * Sentence ranking: LexRank (continuous, Erkan & Radev 2004) over TF-IDF cosine similarity, blended with a position
 * prior, then MMR (Carbonell & Goldstein 1998) to pick sentences that are central but not repeats of each other.
 */

/** A sparse TF-IDF vector: term ids ascending, weights alongside, unit length. */
interface SparseVector {
  ids: Int32Array;
  weights: Float64Array;
}

/** Vectors for term lists, IDF taken over the lists themselves (each sentence is a document, as in LexRank). */
export function tfidfVectors(termLists: readonly string[][]): SparseVector[] {
  const termIds = new Map<string, number>();
  const documentFrequency: number[] = [];
  const counted = termLists.map((terms) => {
    const counts = new Map<number, number>();
    for (const term of terms) {
      let id = termIds.get(term);
      if (id === undefined) {
        id = termIds.size;
        termIds.set(term, id);
        documentFrequency.push(0);
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const id of counts.keys()) documentFrequency[id]! += 1;
    return counts;
  });
  const documents = termLists.length;
  return counted.map((counts) => {
    const ids = Int32Array.from([...counts.keys()].sort((a, b) => a - b));
    const weights = Float64Array.from(ids, (id) => counts.get(id)! * Math.log(1 + documents / documentFrequency[id]!));
    const norm = Math.hypot(...weights);
    if (norm > 0) for (let i = 0; i < weights.length; i += 1) weights[i]! /= norm;
    return { ids, weights };
  });
}

export function cosine(a: SparseVector, b: SparseVector): number {
  let i = 0;
  let j = 0;
  let sum = 0;
  while (i < a.ids.length && j < b.ids.length) {
    const x = a.ids[i]!;
    const y = b.ids[j]!;
    if (x === y) {
      sum += a.weights[i]! * b.weights[j]!;
      i += 1;
      j += 1;
    } else if (x < y) i += 1;
    else j += 1;
  }
  return sum;
}

/** The full similarity matrix, row-major (n is a few hundred sentences at most: chunks keep it so). */
export function similarityMatrix(vectors: readonly SparseVector[]): Float64Array {
  const n = vectors.length;
  const matrix = new Float64Array(n * n);
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const similarity = cosine(vectors[i]!, vectors[j]!);
      matrix[i * n + j] = similarity;
      matrix[j * n + i] = similarity;
    }
  }
  return matrix;
}

const DAMPING = 0.85;
const MAX_ITERATIONS = 100;
const TOLERANCE = 1e-6;

/** Stationary distribution of the random walk over the (symmetric) similarity graph: PageRank with weighted edges. */
export function lexRank(matrix: Float64Array, n: number): Float64Array {
  const rowSums = new Float64Array(n);
  for (let i = 0; i < n; i += 1) for (let j = 0; j < n; j += 1) rowSums[i]! += matrix[i * n + j]!;
  let scores = new Float64Array(n).fill(1 / n);
  const share = new Float64Array(n);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration += 1) {
    let dangling = 0;
    for (let i = 0; i < n; i += 1) {
      if (rowSums[i] === 0) dangling += scores[i]!;
      share[i] = rowSums[i]! > 0 ? scores[i]! / rowSums[i]! : 0;
    }
    const next = new Float64Array(n);
    let change = 0;
    for (let j = 0; j < n; j += 1) {
      // The matrix is symmetric: row j holds the weights of the edges into j.
      let incoming = 0;
      const row = j * n;
      for (let i = 0; i < n; i += 1) incoming += matrix[row + i]! * share[i]!;
      next[j] = (1 - DAMPING) / n + DAMPING * (incoming + dangling / n);
      change += Math.abs(next[j]! - scores[j]!);
    }
    scores = next;
    if (change < TOLERANCE) break;
  }
  return scores;
}

/**
 * A prior for position p (from 0): 1 for the first sentence, falling as 1/sqrt(p+1). News (and most expository
 * writing) puts its facts first; the weight of this prior against centrality is the caller's.
 */
export function positionPrior(position: number): number {
  return 1 / Math.sqrt(position + 1);
}

interface MmrOptions {
  /** How many to pick. */
  count: number;
  /** 1 = relevance only, 0 = novelty only. */
  lambda: number;
  /** Indexes that may be picked; the others are skipped unless too few remain. */
  eligible?: (index: number) => boolean;
  /** A sentence this similar (cosine) to one already picked is a repeat: skipped unless too few remain. */
  redundancy: number;
}

/** Maximal Marginal Relevance: repeatedly pick the sentence with the best score minus its similarity to those picked. */
export function selectMmr(scores: ArrayLike<number>, matrix: Float64Array, options: MmrOptions): number[] {
  const n = scores.length;
  const picked: number[] = [];
  const maxSimilarity = new Float64Array(n);
  const pickFrom = (allowed: (index: number) => boolean) => {
    while (picked.length < options.count) {
      let best = -1;
      let bestValue = -Infinity;
      for (let i = 0; i < n; i += 1) {
        if (picked.includes(i) || !allowed(i)) continue;
        const value = options.lambda * scores[i]! - (1 - options.lambda) * maxSimilarity[i]!;
        if (value > bestValue) {
          bestValue = value;
          best = i;
        }
      }
      if (best < 0) return;
      picked.push(best);
      for (let i = 0; i < n; i += 1) maxSimilarity[i] = Math.max(maxSimilarity[i]!, matrix[best * n + i]!);
    }
  };
  const eligible = options.eligible ?? (() => true);
  pickFrom((i) => eligible(i) && maxSimilarity[i]! < options.redundancy);
  pickFrom(() => true);
  return picked;
}
