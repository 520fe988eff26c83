/**
 * A small seeded generator (mulberry32) for property tests and benchmarks' request mixes: the same sequence on every
 * run, so a failing random case can be replayed from its seed and two bench runs send the same requests. Returns
 * numbers in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
