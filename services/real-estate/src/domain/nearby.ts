/**
 * The records a valuation draws its comparables from, held in a grid of 0.01-degree cells so that the nearest to a
 * point are found without measuring them all. The rule is the one the valuation method states: the CANDIDATES
 * records nearest the subject within the smallest of SEARCH_RADII_KM that holds at least a quarter of them (a rural
 * subject needs a wider net), nearest first, ties by id; never the subject's own records (`exclude`).
 */
import { CellGrid } from "./cells.js";
import { boxAround, distanceKm } from "./geo.js";
import { CANDIDATES, type Sale } from "./valuation.js";

export const SEARCH_RADII_KM = [2, 6, 20, 60];

export type CandidateRecord = Sale & { market: string };

const keepAll = () => false;

export class NearbyRecords {
  private readonly cells = new CellGrid<CandidateRecord>();
  readonly size: number;

  constructor(records: readonly CandidateRecord[]) {
    for (const record of records) this.cells.add(record.latitude, record.longitude, record);
    this.size = records.length;
  }

  candidates(latitude: number, longitude: number, exclude: (record: CandidateRecord) => boolean = keepAll): CandidateRecord[] {
    for (const radius of SEARCH_RADII_KM) {
      const found = this.measured(latitude, longitude, radius, exclude);
      if (found.length >= CANDIDATES / 4 || radius === SEARCH_RADII_KM.at(-1)) {
        found.sort((a, b) => a.distance - b.distance || (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0));
        return found.slice(0, CANDIDATES).map((f) => f.record);
      }
    }
    return [];
  }

  /** Every record within `radiusKm` (great-circle), in no particular order. */
  within(latitude: number, longitude: number, radiusKm: number): CandidateRecord[] {
    return this.measured(latitude, longitude, radiusKm, keepAll).map((f) => f.record);
  }

  /** Every record within `radiusKm` but the excluded, with its distance, read from the cells of its bounding box. */
  private measured(latitude: number, longitude: number, radiusKm: number, exclude: (record: CandidateRecord) => boolean) {
    const box = boxAround(latitude, longitude, radiusKm);
    const found: { record: CandidateRecord; distance: number }[] = [];
    this.cells.forEachNear(box, (record) => {
      if (exclude(record)) return;
      const distance = distanceKm(latitude, longitude, record.latitude, record.longitude);
      if (distance <= radiusKm) found.push({ record, distance });
    });
    return found;
  }
}
