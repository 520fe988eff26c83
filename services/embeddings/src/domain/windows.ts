/**
 * Texts longer than a model's window, represented whole: the tokens are cut into consecutive windows of near-equal
 * length (no overlap), each window is embedded alone, and the text's vector is the mean of the window vectors
 * weighted by their token counts (so every token weighs the same, as in mean pooling over tokens). A text that fits
 * one window is embedded exactly as it always was: its window vector is its vector, untouched.
 */

interface TokenWindow {
  start: number;
  end: number;
}

/** `length` tokens as ceil(length / windowSize) consecutive windows whose lengths differ by at most one. */
export function splitIntoWindows(length: number, windowSize: number): TokenWindow[] {
  if (length <= windowSize) return [{ start: 0, end: length }];
  const count = Math.ceil(length / windowSize);
  const base = Math.floor(length / count);
  const longer = length % count;
  const windows: TokenWindow[] = [];
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = start + base + (i < longer ? 1 : 0);
    windows.push({ start, end });
    start = end;
  }
  return windows;
}

/** The token-weighted mean of the window vectors; the one vector itself when there is one window. */
export function poolWindows(vectors: readonly Float32Array[], tokenCounts: readonly number[]): Float32Array {
  if (vectors.length === 1) return vectors[0];
  const dimensions = vectors[0].length;
  const sum = new Float64Array(dimensions);
  let total = 0;
  vectors.forEach((vector, w) => {
    total += tokenCounts[w];
    for (let d = 0; d < dimensions; d++) sum[d] += vector[d] * tokenCounts[w];
  });
  const out = new Float32Array(dimensions);
  for (let d = 0; d < dimensions; d++) out[d] = sum[d] / total;
  return out;
}
