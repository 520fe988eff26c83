/** Vector arithmetic on embeddings: pure, and in a fixed order so that the same input gives bitwise the same output. */

function l2Norm(vector: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  return Math.sqrt(sum);
}

/** The vector scaled to length 1, as float32; a zero vector stays zero. */
export function normalize(vector: Float32Array): Float32Array {
  const norm = l2Norm(vector);
  const out = new Float32Array(vector.length);
  if (norm === 0) return out;
  for (let i = 0; i < vector.length; i++) out[i] = vector[i] / norm;
  return out;
}

/** Cosine similarity in [-1, 1]; 0 when either vector is zero. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new RangeError(`vectors of ${a.length} and ${b.length} dimensions`);
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  const norms = l2Norm(a) * l2Norm(b);
  if (norms === 0) return 0;
  return Math.max(-1, Math.min(1, dot / norms));
}

/** Mean of the token vectors whose attention mask is 1 (sentence-transformers' mean pooling). */
export function meanPool(tokenVectors: Float32Array, tokens: number, dimensions: number, attentionMask: ArrayLike<number | bigint>): Float32Array {
  const sum = new Float64Array(dimensions);
  let counted = 0;
  for (let t = 0; t < tokens; t++) {
    if (Number(attentionMask[t]) === 0) continue;
    counted++;
    for (let d = 0; d < dimensions; d++) sum[d] += tokenVectors[t * dimensions + d];
  }
  const out = new Float32Array(dimensions);
  const divisor = Math.max(counted, 1e-9);
  for (let d = 0; d < dimensions; d++) out[d] = sum[d] / divisor;
  return out;
}

/** OpenAI's base64 encoding: the float32 values, little-endian, as base64. */
export function toBase64(vector: Float32Array): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) bytes.writeFloatLE(vector[i], i * 4);
  return bytes.toString("base64");
}

export interface Ranked {
  index: number;
  score: number;
}

/** Indexes sorted by score, highest first; ties keep input order. */
export function rankByScore(scores: readonly number[]): Ranked[] {
  return scores.map((score, index) => ({ index, score })).sort((a, b) => b.score - a.score || a.index - b.index);
}
