/** Turning a zone's wall-clock reading into an instant, across the gaps and overlaps of its transitions. */
import type { Transition, ZoneRules } from "./zone-rules.js";
import type { LocalTimeType } from "./tzif.js";

/**
 * The same choices as JavaScript's Temporal: "compatible" moves a time in a gap forward by the gap's length and
 * takes the earlier of two times in an overlap; "earlier" and "later" pick that side in both cases; "reject" refuses.
 */
export const DISAMBIGUATIONS = ["compatible", "earlier", "later", "reject"] as const;
export type Disambiguation = (typeof DISAMBIGUATIONS)[number];

export type Resolution =
  | { kind: "unique"; instant: number }
  | { kind: "gap"; instant: number; earlier: number; later: number; transition: Transition; before: LocalTimeType }
  | { kind: "overlap"; instant: number; earlier: number; later: number; transition: Transition; before: LocalTimeType };

/** No zone's offset has ever been more than a day from UTC, so a window of ±30 hours finds every candidate. */
const SEARCH_WINDOW = 30 * 3600;

/** Every instant whose local reading in the zone is `wall` (seconds of a civil date-time read as UTC). */
function instantsForWall(rules: ZoneRules, wall: number): number[] {
  const offsets = new Set<number>([rules.typeAt(wall - SEARCH_WINDOW).offsetSeconds]);
  for (const transition of rules.transitionsBetween(wall - SEARCH_WINDOW, wall + SEARCH_WINDOW)) {
    offsets.add(transition.type.offsetSeconds);
  }
  const instants = new Set<number>();
  for (const offset of offsets) {
    const candidate = wall - offset;
    if (rules.typeAt(candidate).offsetSeconds === offset) instants.add(candidate);
  }
  return [...instants].sort((a, b) => a - b);
}

/** The transition around `wall` whose local readings before and after bracket it. */
function transitionAround(rules: ZoneRules, wall: number): { transition: Transition; before: LocalTimeType } {
  for (const transition of rules.transitionsBetween(wall - SEARCH_WINDOW, wall + SEARCH_WINDOW)) {
    const before = rules.typeAt(transition.at - 1);
    const low = transition.at + Math.min(before.offsetSeconds, transition.type.offsetSeconds);
    const high = transition.at + Math.max(before.offsetSeconds, transition.type.offsetSeconds);
    if (wall >= low && wall < high) return { transition, before };
  }
  throw new Error("no transition brackets a skipped or repeated local time");
}

/** Resolves a wall-clock time; `reject` still resolves, the caller decides what refusing means. */
export function resolveWall(rules: ZoneRules, wall: number, disambiguation: Disambiguation): Resolution {
  const instants = instantsForWall(rules, wall);
  if (instants.length === 1) return { kind: "unique", instant: instants[0] };
  const { transition, before } = transitionAround(rules, wall);
  if (instants.length === 0) {
    const later = wall - before.offsetSeconds;
    const earlier = wall - transition.type.offsetSeconds;
    const instant = disambiguation === "earlier" ? earlier : later;
    return { kind: "gap", instant, earlier, later, transition, before };
  }
  const earlier = instants[0];
  const later = instants[instants.length - 1];
  const instant = disambiguation === "later" ? later : earlier;
  return { kind: "overlap", instant, earlier, later, transition, before };
}
