import { randomInt } from "node:crypto";

/** A uniformly chosen element; crypto.randomInt rejects out-of-range draws, so there is no modulo bias. */
export function pick<T>(items: readonly T[]): T {
  return items[randomInt(items.length)];
}

/** Fisher-Yates with a CSPRNG. */
export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

export function between(min: number, max: number): number {
  return randomInt(min, max + 1);
}
