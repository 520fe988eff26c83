/** The offsets of one zone through time: the TZif transition table, extended by its POSIX TZ footer. */
import { secondsToCivil } from "./civil.js";
import { constantType, parsePosixTz, transitionsOfYear, type PosixTz } from "./posix-tz.js";
import type { LocalTimeType, TzifData } from "./tzif.js";

export interface Transition {
  /** UTC seconds since the epoch at which `type` starts. */
  at: number;
  type: LocalTimeType;
}

/** Walks through periods stop after this many steps; real zones need at most a handful. */
const MAX_WALK = 64;

function sameType(a: LocalTimeType, b: LocalTimeType): boolean {
  return a.offsetSeconds === b.offsetSeconds && a.isDst === b.isDst && a.abbreviation === b.abbreviation;
}

export class ZoneRules {
  private readonly initialType: LocalTimeType;
  /** Changes of local time type from the table, with no-op transitions dropped. */
  private readonly changes: Transition[];
  /** The footer applies from this instant on (the table's last transition, even a no-op one). */
  private readonly tableEnd: number;
  private readonly footer?: PosixTz;
  /** The footer's transitions per year, computed once: requests keep asking about the same few years. */
  private readonly footerYears = new Map<number, Transition[]>();

  constructor(data: TzifData) {
    this.initialType = data.types[0];
    this.changes = [];
    let current = this.initialType;
    data.transitionTimes.forEach((at, index) => {
      const type = data.types[data.transitionTypes[index]];
      if (!sameType(type, current)) this.changes.push({ at, type });
      current = type;
    });
    this.tableEnd = data.transitionTimes.length > 0 ? data.transitionTimes[data.transitionTimes.length - 1] : -Infinity;
    const footer = data.footer ? parsePosixTz(data.footer) : undefined;
    // A footer without transitions only restates the table's last type (RFC 8536 requires them to agree).
    this.footer = footer && !constantType(footer) ? footer : undefined;
  }

  typeAt(t: number): LocalTimeType {
    if (this.footer && t >= this.tableEnd) return this.footerTypeAt(t);
    const index = this.lastChangeIndexAtOrBefore(t);
    return index === -1 ? this.initialType : this.changes[index].type;
  }

  /** The last change of type at or before `t`, or null when the zone never changed before `t`. */
  transitionAtOrBefore(t: number): Transition | null {
    if (this.footer && t >= this.tableEnd) {
      const footerChange = this.footerChangeAtOrBefore(t);
      if (footerChange) return footerChange;
    }
    const index = this.lastChangeIndexAtOrBefore(t);
    return index === -1 ? null : this.changes[index];
  }

  /** The first change of type strictly after `t`, or null when the zone never changes again. */
  transitionAfter(t: number): Transition | null {
    const index = this.lastChangeIndexAtOrBefore(t) + 1;
    if (index < this.changes.length) return this.changes[index]; // table changes all lie at or before tableEnd
    if (!this.footer) return null;
    return this.footerChangeAfter(Math.max(t, this.tableEnd - 1));
  }

  /** All changes in [from, to), in order. */
  transitionsBetween(from: number, to: number): Transition[] {
    const result: Transition[] = [];
    let next = this.transitionAfter(from - 1);
    while (next && next.at < to) {
      result.push(next);
      next = this.transitionAfter(next.at);
    }
    return result;
  }

  /**
   * The standard (non-DST) offset in force at `t`. TZif does not store it during DST, so it is inferred from the
   * standard periods on either side: the one that makes the DST amount exactly one hour when one of them does
   * (a zone may change its standard time as DST starts or as it ends), else the one before, else the one after,
   * and never a zero DST amount for a DST period. Past the table, the footer rule states it.
   */
  standardOffsetAt(t: number): number {
    const type = this.typeAt(t);
    if (!type.isDst) return type.offsetSeconds;
    if (this.footer && t >= this.tableEnd && this.footer.daylight) return this.footer.standard.offsetSeconds;
    const before = this.findPeriod(t, "backward", (p) => !p.isDst)?.offsetSeconds;
    const after = this.findPeriod(t, "forward", (p) => !p.isDst)?.offsetSeconds;
    const oneHour = (standard: number | undefined) => standard !== undefined && Math.abs(type.offsetSeconds - standard) === 3600;
    if (oneHour(before)) return before!;
    if (oneHour(after)) return after!;
    const standard = before ?? after ?? type.offsetSeconds;
    // DST with the standard offset's own value (Argentina 1999: -03 standard became -03 DST over a new -04) is the
    // usual hour of DST over a standard time the table never shows; Python's zoneinfo makes the same inference.
    return standard === type.offsetSeconds ? type.offsetSeconds - 3600 : standard;
  }

  private findPeriod(t: number, direction: "backward" | "forward", wanted: (type: LocalTimeType) => boolean) {
    let cursor = t;
    for (let step = 0; step < MAX_WALK; step++) {
      if (direction === "backward") {
        const start = this.transitionAtOrBefore(cursor);
        if (!start) return undefined;
        cursor = start.at - 1;
      } else {
        const next = this.transitionAfter(cursor);
        if (!next) return undefined;
        cursor = next.at;
      }
      const type = this.typeAt(cursor);
      if (wanted(type)) return type;
    }
    return undefined;
  }

  private lastChangeIndexAtOrBefore(t: number): number {
    let low = 0;
    let high = this.changes.length - 1;
    let found = -1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (this.changes[mid].at <= t) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  private tableTypeAtEnd(): LocalTimeType {
    return this.changes.length > 0 ? this.changes[this.changes.length - 1].type : this.initialType;
  }

  /** Footer transitions of the years around `t` that fall after the table, in order. */
  private footerEvents(fromYear: number, toYear: number): Transition[] {
    const events: Transition[] = [];
    for (let year = fromYear; year <= toYear; year++) events.push(...this.footerYear(year));
    return events;
  }

  private footerYear(year: number): Transition[] {
    let events = this.footerYears.get(year);
    if (!events) {
      events = transitionsOfYear(this.footer!, year).filter((event) => event.at > this.tableEnd);
      this.footerYears.set(year, events);
    }
    return events;
  }

  private footerTypeAt(t: number): LocalTimeType {
    const year = secondsToCivil(t).year;
    let type = this.tableTypeAtEnd();
    for (const event of this.footerEvents(year - 1, year)) if (event.at <= t) type = event.type;
    return type;
  }

  private footerChangeAtOrBefore(t: number): Transition | null {
    const year = secondsToCivil(t).year;
    const events = this.footerEvents(year - 2, year).filter((e) => e.at <= t);
    for (let i = events.length - 1; i >= 0; i--) {
      const previous = i > 0 ? events[i - 1].type : this.typeAt(events[i].at - 1);
      if (!sameType(previous, events[i].type)) return events[i];
    }
    return null;
  }

  private footerChangeAfter(t: number): Transition | null {
    const year = secondsToCivil(t).year;
    let current = this.typeAt(t);
    for (const event of this.footerEvents(year, year + 3)) {
      if (event.at <= t) continue;
      if (!sameType(event.type, current)) return event;
      current = event.type;
    }
    return null;
  }
}
