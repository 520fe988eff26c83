import { seededRandom } from "@apiplat/testing";

/** A bench's request mix, the same on every run: draws from a fixed seed, and a pick from a list made with them. */
export function seededMix(seed: number): { random: () => number; pick: <T>(list: readonly T[]) => T } {
  const random = seededRandom(seed);
  return { random, pick: (list) => list[Math.floor(random() * list.length)] };
}
