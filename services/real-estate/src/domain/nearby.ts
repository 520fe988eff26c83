/**
 * The records a valuation draws its comparables from, held in a grid of 0.01-degree cells so that the nearest to a
 * point are found without measuring them all. The rule is the one the valuation method states: the CANDIDATES
 * records nearest the subject within the smallest of SEARCH_RADII_KM that holds at least a quarter of them (a rural
 * subject needs a wider net), nearest first, ties by id; never the subject's own records.
 */
import { boxAround, distanceKm } from "./geo.js";
import { CANDIDATES, type Sale } from "./valuation.js";

export const SEARCH_RADII_KM = [2, 6, 20, 60];
const CELL_DEGREES = 0.01;
/** Cells per degree of longitude in a key: more than 360 / CELL_DEGREES, so that (row, column) keys never collide. */
const KEY_STRIDE = 100_000;

export type CandidateRecord = Sale & { market: string; address_key: string | null };

export interface Exclusion {
  id?: string;
  addressKey?: string | null;
}

const cellOf = (degrees: number) => Math.floor(degrees / CELL_DEGREES);

export class NearbyRecords {
  private readonly cells = new Map<number, CandidateRecord[]>();

  constructor(records: readonly CandidateRecord[]) {
    for (const record of records) {
      const key = cellOf(record.latitude) * KEY_STRIDE + cellOf(record.longitude);
      const cell = this.cells.get(key);
      if (cell) cell.push(record);
      else this.cells.set(key, [record]);
    }
  }

  get size(): number {
    let total = 0;
    for (const cell of this.cells.values()) total += cell.length;
    return total;
  }

  candidates(latitude: number, longitude: number, exclude: Exclusion): CandidateRecord[] {
    for (const radius of SEARCH_RADII_KM) {
      const within = this.within(latitude, longitude, radius, exclude);
      if (within.length >= CANDIDATES / 4 || radius === SEARCH_RADII_KM.at(-1)) {
        within.sort((a, b) => a.distance - b.distance || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0));
        return within.slice(0, CANDIDATES).map((found) => found.record);
      }
    }
    return [];
  }

  /** Every record within `radiusKm` (great-circle), read from the cells of its bounding box. */
  private within(latitude: number, longitude: number, radiusKm: number, exclude: Exclusion): { record: CandidateRecord; distance: number }[] {
    const box = boxAround(latitude, longitude, radiusKm);
    const found: { record: CandidateRecord; distance: number }[] = [];
    for (let row = cellOf(box.minLat); row <= cellOf(box.maxLat); row++) {
      for (let column = cellOf(box.minLon); column <= cellOf(box.maxLon); column++) {
        for (const record of this.cells.get(row * KEY_STRIDE + column) ?? []) {
          if (record.id === exclude.id || (exclude.addressKey && record.address_key === exclude.addressKey)) continue;
          const distance = distanceKm(latitude, longitude, record.latitude, record.longitude);
          if (distance <= radiusKm) found.push({ record, distance });
        }
      }
    }
    return found;
  }
}
