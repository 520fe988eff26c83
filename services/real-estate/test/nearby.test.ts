import { describe, expect, it } from "vitest";
import { distanceKm } from "../src/domain/geo.js";
import { NearbyRecords, SEARCH_RADII_KM, type CandidateRecord } from "../src/domain/nearby.js";
import { CANDIDATES, seededRandom } from "../src/domain/valuation.js";

const random = seededRandom(3);

function record(id: number, latitude: number, longitude: number): CandidateRecord {
  return {
    id: `r-${id}`,
    address: null,
    latitude,
    longitude,
    price: 1,
    living_sqft: 1,
    bedrooms: null,
    bathrooms: null,
    year_built: null,
    property_type: null,
    date: null,
    market: "m",
    property_key: `a-${id % 50}`,
  };
}

/** The rule measured on every record, as the valuation method states it. */
function bruteForce(records: CandidateRecord[], latitude: number, longitude: number, exclude: { id?: string; key?: string }) {
  const kept = records.filter((r) => r.id !== exclude.id && !(exclude.key && r.property_key === exclude.key));
  const measured = kept.map((r) => ({ r, d: distanceKm(latitude, longitude, r.latitude, r.longitude) }));
  for (const radius of SEARCH_RADII_KM) {
    const within = measured.filter((m) => m.d <= radius);
    if (within.length >= CANDIDATES / 4 || radius === SEARCH_RADII_KM.at(-1)) {
      return within
        .sort((a, b) => a.d - b.d || (a.r.id < b.r.id ? -1 : 1))
        .slice(0, CANDIDATES)
        .map((m) => m.r.id);
    }
  }
  return [];
}

describe("the nearest records of a valuation", () => {
  // A dense city, a sparse suburb, records sharing one place (a building's flats), and nothing far away.
  const records: CandidateRecord[] = [];
  for (let i = 0; i < 3000; i++) records.push(record(i, 47.6 + (random() - 0.5) * 0.1, -122.3 + (random() - 0.5) * 0.1));
  for (let i = 3000; i < 3300; i++) records.push(record(i, 47.2 + (random() - 0.5) * 0.6, -121.9 + (random() - 0.5) * 0.6));
  for (let i = 3300; i < 3340; i++) records.push(record(i, 47.61, -122.31));
  const nearby = new NearbyRecords(records);

  it("are the ones measuring every record gives, in the same order, at every kind of place", () => {
    expect(nearby.size).toBe(3340);
    const points: [number, number][] = [
      [47.61, -122.31],
      [47.6, -122.3],
      [47.2, -121.9],
      [46.95, -121.5],
      [47.0, -122.9],
    ];
    for (let i = 0; i < 20; i++) points.push([47.0 + random(), -122.6 + random()]);
    for (const [latitude, longitude] of points) {
      for (const exclude of [{}, { id: "r-3301" }, { key: "a-7" }]) {
        const excluded = (r: CandidateRecord) => r.id === exclude.id || r.property_key === exclude.key;
        expect(nearby.candidates(latitude, longitude, excluded).map((r) => r.id)).toEqual(bruteForce(records, latitude, longitude, exclude));
      }
    }
  });

  it("widen to 60 km for a lone subject and find nothing beyond", () => {
    expect(nearby.candidates(0, 0)).toEqual([]);
    const far = nearby.candidates(46.7, -121.9);
    expect(far.length).toBeGreaterThan(0);
    for (const r of far) expect(distanceKm(46.7, -121.9, r.latitude, r.longitude)).toBeLessThanOrEqual(60);
  });
});
