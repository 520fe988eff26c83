/**
 * An integer drawn uniformly from [min, max): `crypto.randomInt` in production. Passed in by the caller so that
 * domain/ draws nothing itself and stays deterministic under test.
 */
export type RandomInt = (min: number, max: number) => number;

/** A uniformly chosen element; crypto.randomInt rejects out-of-range draws, so there is no modulo bias. */
export function pick<T>(items: readonly T[], randomInt: RandomInt): T {
  return items[randomInt(0, items.length)];
}

/** Fisher-Yates with the given draw (a CSPRNG in production). */
export function shuffle<T>(items: T[], randomInt: RandomInt): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(0, i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

export function between(min: number, max: number, randomInt: RandomInt): number {
  return randomInt(min, max + 1);
}
