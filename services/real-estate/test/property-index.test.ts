import { describe, expect, it } from "vitest";
import { distanceKm } from "../src/domain/geo.js";
import { PropertyIndex, type PropertyFilters, type PropertySort, type SearchableProperty } from "../src/domain/property-index.js";
import { seededRandom } from "../src/domain/valuation.js";

const random = seededRandom(11);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
const maybe = <T>(value: T): T | null => (random() < 0.15 ? null : value);

/** Records with the catalogue's awkward cases: missing fields, tied prices and dates, several records on one spot. */
function records(count: number): SearchableProperty[] {
  return Array.from({ length: count }, (_, i) => {
    const spot = i % 7 === 0 ? [47.61, -122.33] : [47.4 + random() * 0.4, -122.5 + random() * 0.4];
    const dated = random() < 0.8;
    return {
      id: `r-${String(Math.floor(random() * 1e6)).padStart(6, "0")}-${i}`,
      city: maybe(pick(["Seattle", "SEATTLE", "Kent", "Renton"])),
      state: maybe(pick(["WA", "NY"])),
      zip: maybe(pick(["98103", "98115", "98052"])),
      latitude: spot[0],
      longitude: spot[1],
      price: pick([250000, 400000, 400000, 650000, 1200000]) + (random() < 0.5 ? 0 : Math.floor(random() * 1000)),
      bedrooms: maybe(pick([1, 2, 3, 4])),
      bathrooms: maybe(pick([1, 1.5, 2, 3])),
      living_sqft: maybe(pick([700, 1500, 2200])),
      property_type: maybe(pick(["house", "condo", "co_op"])),
      status: maybe(pick(["sold", "for_sale"])),
      market: pick(["king-county", "new-york"]),
      sold_date: dated ? pick(["2014-05-02", "2014-11-20", "2015-01-07"]) : null,
      listed_date: !dated && random() < 0.5 ? pick(["2024-01-03", "2014-11-20"]) : null,
    };
  });
}

/** The search as SQL states it, measured on every record. */
function bruteForce(all: SearchableProperty[], f: PropertyFilters, sort: PropertySort, offset: number, limit: number) {
  const d = (p: SearchableProperty) => (f.near ? distanceKm(f.near.latitude, f.near.longitude, p.latitude, p.longitude) : null);
  const ge = (v: number | null, b?: number) => b === undefined || (v !== null && v >= b);
  const le = (v: number | null, b?: number) => b === undefined || (v !== null && v <= b);
  const among = (v: string | null, l?: string[]) => !l || l.length === 0 || (v !== null && l.includes(v));
  const matches = all.filter(
    (p) =>
      (!f.near || d(p)! <= f.near.radiusKm) &&
      (!f.box || (p.latitude >= f.box.minLat && p.latitude <= f.box.maxLat && p.longitude >= f.box.minLon && p.longitude <= f.box.maxLon)) &&
      (!f.city || p.city?.toLowerCase() === f.city.toLowerCase()) &&
      (!f.state || p.state === f.state) &&
      (!f.zip || p.zip === f.zip) &&
      ge(p.price, f.minPrice) &&
      le(p.price, f.maxPrice) &&
      ge(p.bathrooms, f.bathrooms) &&
      ge(p.living_sqft, f.minSqft) &&
      le(p.living_sqft, f.maxSqft) &&
      among(p.property_type, f.propertyTypes) &&
      among(p.status, f.statuses) &&
      among(p.market, f.markets) &&
      (f.bedrooms === undefined || (p.bedrooms !== null && (f.bedroomsExact ? p.bedrooms === f.bedrooms : p.bedrooms >= f.bedrooms))),
  );
  const id = (a: SearchableProperty, b: SearchableProperty) => (a.id < b.id ? -1 : 1);
  const date = (p: SearchableProperty) => p.sold_date ?? p.listed_date ?? "";
  const compare: Record<PropertySort, (a: SearchableProperty, b: SearchableProperty) => number> = {
    price_asc: (a, b) => a.price - b.price || id(a, b),
    price_desc: (a, b) => b.price - a.price || id(a, b),
    newest: (a, b) => (date(a) === date(b) ? id(a, b) : date(a) < date(b) ? 1 : -1),
    distance: (a, b) => d(a)! - d(b)! || id(a, b),
  };
  const facet = (key: "property_type" | "status" | "market", top: number) => {
    const counts = new Map<string, number>();
    for (const p of matches) if (p[key] !== null) counts.set(p[key]!, (counts.get(p[key]!) ?? 0) + 1);
    return [...counts]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
      .slice(0, top);
  };
  return {
    total: matches.length,
    ids: [...matches]
      .sort(compare[sort])
      .slice(offset, offset + limit)
      .map((p) => p.id),
    facets: { property_type: facet("property_type", 20), status: facet("status", 20), market: facet("market", 5) },
  };
}

function randomFilters(): PropertyFilters {
  const f: PropertyFilters = {};
  if (random() < 0.3) f.near = { latitude: 47.4 + random() * 0.4, longitude: -122.5 + random() * 0.4, radiusKm: pick([1, 3, 10]) };
  else if (random() < 0.2) f.box = { minLat: 47.5, maxLat: 47.5 + random() * 0.3, minLon: -122.4, maxLon: -122.4 + random() * 0.3 };
  if (random() < 0.2) f.city = pick(["seattle", "Kent", "nowhere"]);
  if (random() < 0.2) f.state = pick(["WA", "NY"]);
  if (random() < 0.2) f.zip = pick(["98103", "98052"]);
  if (random() < 0.3) f.minPrice = pick([300000, 400000]);
  if (random() < 0.3) f.maxPrice = pick([400000, 700000]);
  if (random() < 0.3) [f.bedrooms, f.bedroomsExact] = [pick([2, 3]), random() < 0.5];
  if (random() < 0.2) f.bathrooms = 1.5;
  if (random() < 0.2) f.propertyTypes = pick([["condo"], ["house", "co_op"]]);
  if (random() < 0.2) f.minSqft = 1500;
  if (random() < 0.2) f.statuses = ["sold"];
  if (random() < 0.2) f.markets = pick([["new-york"], ["king-county", "king-county"]]);
  return f;
}

describe("the in-memory property index", () => {
  const all = records(3000);
  const index = new PropertyIndex(all);

  it("finds, counts, orders, pages and facets as measuring every record does, over 400 random searches", () => {
    for (let i = 0; i < 400; i++) {
      const filters = randomFilters();
      const sort: PropertySort = filters.near && random() < 0.5 ? "distance" : pick(["price_asc", "price_desc", "newest"] as const);
      const [offset, limit] = [pick([0, 0, 10, 95]), pick([10, 50])];
      const expected = bruteForce(all, filters, sort, offset, limit);
      const found = index.search(filters, sort, { offset, limit }, true);
      expect({ total: found.total, ids: found.properties.map((p) => p.property.id), facets: found.facets }, JSON.stringify({ filters, sort, offset })).toEqual(
        expected,
      );
    }
  });

  it("gives each record of a radius search its distance, and none without one", () => {
    const near = index.search({ near: { latitude: 47.61, longitude: -122.33, radiusKm: 2 } }, "distance", { offset: 0, limit: 5 }, false);
    expect(near.properties[0].distance_km).toBe(0);
    expect(index.search({}, "newest", { offset: 0, limit: 1 }, false).properties[0].distance_km).toBeNull();
  });
});
