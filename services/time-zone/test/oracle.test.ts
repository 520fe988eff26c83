/**
 * Every zone, canonical and alias, checked against two independent readers of the same compiled tz database:
 * Python's zoneinfo for every name (six instants each year 1975-2037 and both sides of every transition; for
 * canonical zones also every other year over the rest of the supported range, 1800-1974 and 2038-2200), and for
 * every canonical zone wall-clock readings at both edges of every gap and overlap; and zdump for every canonical zone (its complete list of transitions
 * 1975-2037, and 2038-2059 where the table ends and the footer's POSIX rule answers). zdump is run on the canonical
 * zones only because it costs seconds of CPU per decade; aliases share their target's data, and Python covers them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { civilToSeconds, secondsToCivil } from "../src/domain/civil.js";
import { MAX_YEAR, MIN_YEAR } from "../src/domain/iso-input.js";
import { resolveWall } from "../src/domain/local-time.js";
import { DEFAULT_ZONEINFO_DIR, ZoneDatabase } from "../src/zoneinfo/zone-database.js";
import type { Transition } from "../src/domain/zone-rules.js";
import { zdumpTransitions, zoneinfoAnswers, type OracleTransition, type ZoneinfoAnswers } from "./support/oracles.js";

const FIRST_YEAR = 1975;
const LAST_YEAR = 2037;
const db = ZoneDatabase.load(DEFAULT_ZONEINFO_DIR);
const names = db.entries.map((e) => e.name);
const canonicalNames = db.entries.filter((e) => e.kind === "canonical").map((e) => e.name);
const FOOTER_END_YEAR = 2060;
const from = civilToSeconds({ year: FIRST_YEAR, month: 1, day: 2, hour: 0, minute: 0, second: 0 });
const to = civilToSeconds({ year: LAST_YEAR + 1, month: 1, day: 1, hour: 0, minute: 0, second: 0 });

/** Six instants a year at different months and hours, so every season and both halves of the day are seen. */
function yearlyInstants(): number[] {
  const result: number[] = [];
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year++) {
    [
      [1, 15, 12],
      [3, 20, 3],
      [4, 25, 23],
      [7, 15, 12],
      [10, 10, 6],
      [11, 28, 17],
    ].forEach(([month, day, hour]) => result.push(civilToSeconds({ year, month, day, hour, minute: 30, second: 0 })));
  }
  return result;
}

/** Every other year over the rest of the supported range (1800-1974, 2038-2200), January and July in turn. */
function outerInstants(): number[] {
  const result: number[] = [];
  for (let year = MIN_YEAR; year <= MAX_YEAR; year += 2) {
    if (year >= FIRST_YEAR && year <= LAST_YEAR) continue;
    result.push(civilToSeconds({ year, month: year % 4 === 0 ? 1 : 7, day: 15, hour: 12, minute: 0, second: 0 }));
  }
  return result;
}

/** Aliases share their target's file, so the outer range is sampled on canonical zones only, to save time. */
function instantsFor(zone: string): number[] {
  const entry = db.find(zone)!;
  const around = entry.rules.transitionsBetween(from, to).flatMap((t) => [t.at - 1, t.at]);
  return [...yearlyInstants(), ...around, ...(entry.kind === "canonical" ? outerInstants() : [])];
}

/** Wall readings at noon twice a year, and both edges of every gap or overlap (the last unique second around it). */
function wallsFor(zone: string): number[] {
  const rules = db.find(zone)!.rules;
  const walls: number[] = [];
  for (let year = FIRST_YEAR; year <= LAST_YEAR; year++) {
    for (const month of [1, 7]) walls.push(civilToSeconds({ year, month, day: 15, hour: 12, minute: 0, second: 0 }));
  }
  for (const transition of rules.transitionsBetween(from, to)) {
    const before = rules.typeAt(transition.at - 1).offsetSeconds;
    const low = transition.at + Math.min(before, transition.type.offsetSeconds);
    const high = transition.at + Math.max(before, transition.type.offsetSeconds);
    walls.push(low - 1, low);
    if (high > low) walls.push(high - 1, high);
  }
  return walls;
}

function describeTransitions(list: (Transition | OracleTransition)[]): string {
  return list
    .map((t) => ("type" in t ? [t.at, t.type.offsetSeconds, t.type.isDst, t.type.abbreviation] : [t.at, t.offsetSeconds, t.isDst, t.abbreviation]).join(" "))
    .join("\n");
}

function toFields(wall: number): number[] {
  const c = secondsToCivil(wall);
  return [c.year, c.month, c.day, c.hour, c.minute, c.second];
}

describe("every zone against zdump and Python zoneinfo", () => {
  let zdump: Map<string, OracleTransition[]>;
  let zdumpFuture: Map<string, OracleTransition[]>;
  let python: ZoneinfoAnswers;
  const walls: Record<string, number[]> = {};

  beforeAll(async () => {
    const instants: Record<string, number[]> = {};
    const wallFields: Record<string, number[][]> = {};
    for (const name of names) instants[name] = instantsFor(name);
    for (const name of canonicalNames) {
      walls[name] = wallsFor(name);
      wallFields[name] = walls[name].map(toFields);
    }
    [zdump, zdumpFuture, python] = await Promise.all([
      zdumpTransitions(DEFAULT_ZONEINFO_DIR, canonicalNames, FIRST_YEAR, LAST_YEAR + 1),
      zdumpTransitions(DEFAULT_ZONEINFO_DIR, canonicalNames, LAST_YEAR + 1, FOOTER_END_YEAR),
      zoneinfoAnswers(DEFAULT_ZONEINFO_DIR, instants, wallFields),
    ]);
  }, 120_000);

  it("knows about 600 names, and the tz database version", () => {
    expect(names.length).toBeGreaterThan(550);
    expect(db.version).toMatch(/^\d{4}[a-z]$/);
  });

  it("finds exactly zdump's transitions 1975-2037 (instant, offset, DST flag, abbreviation) in every canonical zone", () => {
    const mismatches: string[] = [];
    for (const name of canonicalNames) {
      const ours = describeTransitions(db.find(name)!.rules.transitionsBetween(from, to));
      const theirs = describeTransitions(zdump.get(name)!.filter((t) => t.at >= from && t.at < to));
      if (ours !== theirs) mismatches.push(name);
    }
    expect(mismatches).toEqual([]);
    expect(zdump.get("Europe/Berlin")!.length).toBeGreaterThan(100);
  });

  it("extends the table with the POSIX footer rule exactly as zdump does, 2038-2059", () => {
    const end = civilToSeconds({ year: FOOTER_END_YEAR, month: 1, day: 1, hour: 0, minute: 0, second: 0 });
    const mismatches: string[] = [];
    for (const name of canonicalNames) {
      const ours = describeTransitions(db.find(name)!.rules.transitionsBetween(to, end));
      if (ours !== describeTransitions(zdumpFuture.get(name)!)) mismatches.push(name);
    }
    expect(mismatches).toEqual([]);
    expect(zdumpFuture.get("America/New_York")!.length).toBe(2 * (FOOTER_END_YEAR - LAST_YEAR - 1));
  });

  it("gives Python's offset and abbreviation at six instants a year, around every transition, and 1800-2200", () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const name of names) {
      const rules = db.find(name)!.rules;
      instantsFor(name).forEach((t, i) => {
        const [offset, abbreviation] = python.instants[name][i];
        const type = rules.typeAt(t);
        checked++;
        if (type.offsetSeconds !== offset || type.abbreviation !== abbreviation) {
          mismatches.push(`${name} at ${t}: ours ${type.offsetSeconds} ${type.abbreviation}, Python ${offset} ${abbreviation}`);
        }
      });
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    expect(checked).toBeGreaterThan(names.length * 6 * 63 + canonicalNames.length * 160);
  });

  /**
   * TZif does not record the standard offset under DST, so both sides infer it. Where they differ, Python's guess
   * contradicts the tz source (America/Inuvik's MDT is an hour over MST, not two over PST; Pacific/Rarotonga saved
   * 30 minutes, not an hour): time-zone.test.ts pins such cases. The share of disagreement stays tiny.
   */
  it("infers the DST amount as Python's zoneinfo does in all but a sliver of samples", () => {
    let checked = 0;
    let disagreements = 0;
    for (const name of names) {
      const rules = db.find(name)!.rules;
      instantsFor(name).forEach((t, i) => {
        const [offset, , pythonDst] = python.instants[name][i];
        checked++;
        if (offset - rules.standardOffsetAt(t) !== pythonDst) disagreements++;
      });
    }
    expect(disagreements / checked).toBeLessThan(0.002);
  });

  it("resolves wall-clock readings in gaps and overlaps as Python's fold does, with each disambiguation", () => {
    const mismatches: string[] = [];
    const seen = { unique: 0, gap: 0, overlap: 0 };
    for (const name of canonicalNames) {
      const rules = db.find(name)!.rules;
      walls[name].forEach((wall, i) => {
        const [fold0, fold1] = python.walls[name][i];
        const compatible = resolveWall(rules, wall, "compatible");
        const earlier = resolveWall(rules, wall, "earlier").instant;
        const later = resolveWall(rules, wall, "later").instant;
        const kind = fold0 === fold1 ? "unique" : fold0 < fold1 ? "overlap" : "gap";
        seen[kind]++;
        const expected = kind === "unique" ? [fold0, fold0, fold0] : kind === "overlap" ? [fold0, fold0, fold1] : [fold0, fold1, fold0];
        const ours = [compatible.instant, earlier, later];
        if (compatible.kind !== kind || JSON.stringify(ours) !== JSON.stringify(expected)) {
          mismatches.push(`${name} wall ${wall}: ours ${compatible.kind} ${ours}, Python ${kind} ${expected}`);
        }
      });
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
    expect(seen.gap).toBeGreaterThan(10_000);
    expect(seen.overlap).toBeGreaterThan(10_000);
  });
});
