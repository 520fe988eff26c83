/**
 * The catalogue's properties in memory, searched without a query: the filters, sorts and facets of GET /search over
 * every record (27,181 from the three datasets). A search looks only at the records that can match (those of the zip code, city, state
 * or market it names, or of the cells of its box or radius, whichever are fewest), counts every match (the total and
 * the facets need them all), then reads its page off that sort's order, computed once. A distance sort sorts the
 * matches, which a radius keeps few.
 *
 * The semantics are SQL's: a filter on a field the record lacks (NULL) does not match it, ranges include their
 * edges, ties are broken by id in byte order (the C collation the catalogue's database uses).
 */
import { CellGrid } from "./cells.js";
import { boxAround, distanceKm, type Box } from "./geo.js";

export interface PropertyFilters {
  city?: string;
  state?: string;
  zip?: string;
  near?: { latitude: number; longitude: number; radiusKm: number };
  box?: Box;
  minPrice?: number;
  maxPrice?: number;
  bedrooms?: number;
  bedroomsExact?: boolean;
  bathrooms?: number;
  propertyTypes?: string[];
  minSqft?: number;
  maxSqft?: number;
  statuses?: string[];
  markets?: string[];
}

export type PropertySort = "price_asc" | "price_desc" | "newest" | "distance";

/** The fields a search reads. */
export interface SearchableProperty {
  id: string;
  city: string | null;
  state: string | null;
  zip: string | null;
  latitude: number;
  longitude: number;
  price: number;
  bedrooms: number | null;
  bathrooms: number | null;
  living_sqft: number | null;
  property_type: string | null;
  status: string | null;
  market: string;
  sold_date: string | null;
  listed_date: string | null;
}

export interface FacetCount {
  value: string;
  count: number;
}

export type PropertyFacets = Record<"property_type" | "status" | "market", FacetCount[]>;

const FACET_LIMITS = { property_type: 20, status: 20, market: 5 } as const;

export interface SearchPage<R> {
  total: number;
  properties: (R & { distance_km: number | null })[];
  facets?: PropertyFacets;
}

const byId = (a: SearchableProperty, b: SearchableProperty) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const newestDate = (p: SearchableProperty) => p.sold_date ?? p.listed_date;

/** A record's place in the newest-first order: dated records newest first, undated last, then by id. */
export function newestFirst(a: SearchableProperty, b: SearchableProperty): number {
  const [da, db] = [newestDate(a), newestDate(b)];
  if (da !== db) {
    if (da === null) return 1;
    if (db === null) return -1;
    return da < db ? 1 : -1;
  }
  return byId(a, b);
}

const inBox = (p: SearchableProperty, box: Box) => p.latitude >= box.minLat && p.latitude <= box.maxLat && p.longitude >= box.minLon && p.longitude <= box.maxLon;
const atLeast = (value: number | null, bound: number | undefined) => bound === undefined || (value !== null && value >= bound);
const atMost = (value: number | null, bound: number | undefined) => bound === undefined || (value !== null && value <= bound);
const oneOf = (value: string | null, list: string[] | undefined) => !list || list.length === 0 || (value !== null && list.includes(value));
const given = (value: string | undefined): value is string => value !== undefined && value !== "";

/** Whether a record matches every filter except the radius (which needs its distance). */
function matcher(filters: PropertyFilters): (p: SearchableProperty) => boolean {
  const nearBox = filters.near ? boxAround(filters.near.latitude, filters.near.longitude, filters.near.radiusKm) : undefined;
  const city = given(filters.city) ? filters.city.toLowerCase() : undefined;
  const state = given(filters.state) ? filters.state.toUpperCase() : undefined;
  const zip = given(filters.zip) ? filters.zip : undefined;
  return (p) =>
    (!nearBox || inBox(p, nearBox)) &&
    (!filters.box || inBox(p, filters.box)) &&
    (city === undefined || (p.city !== null && p.city.toLowerCase() === city)) &&
    (state === undefined || p.state === state) &&
    (zip === undefined || p.zip === zip) &&
    atLeast(p.price, filters.minPrice) &&
    atMost(p.price, filters.maxPrice) &&
    atLeast(p.bathrooms, filters.bathrooms) &&
    atLeast(p.living_sqft, filters.minSqft) &&
    atMost(p.living_sqft, filters.maxSqft) &&
    oneOf(p.property_type, filters.propertyTypes) &&
    oneOf(p.status, filters.statuses) &&
    oneOf(p.market, filters.markets) &&
    (filters.bedrooms === undefined || (p.bedrooms !== null && (filters.bedroomsExact ? p.bedrooms === filters.bedrooms : p.bedrooms >= filters.bedrooms)));
}

const FACETS = ["property_type", "status", "market"] as const;

/** Each record's facet values as small codes, so that a search counts in arrays, not maps. */
class FacetCodes {
  readonly values: Record<keyof PropertyFacets, string[]>;
  readonly codes: Record<keyof PropertyFacets, Int32Array>;

  constructor(records: readonly SearchableProperty[]) {
    this.values = { property_type: [], status: [], market: [] };
    this.codes = { property_type: new Int32Array(records.length), status: new Int32Array(records.length), market: new Int32Array(records.length) };
    for (const facet of FACETS) {
      const codeOf = new Map<string, number>();
      records.forEach((record, position) => {
        const value = record[facet];
        if (value === null) {
          this.codes[facet][position] = -1;
          return;
        }
        let code = codeOf.get(value);
        if (code === undefined) {
          code = this.values[facet].push(value) - 1;
          codeOf.set(value, code);
        }
        this.codes[facet][position] = code;
      });
    }
  }

  /** The counts of the matches at `positions[0..count)`: most frequent first, then by value; at most each facet's limit. */
  count(positions: Int32Array, count: number): PropertyFacets {
    const ranked = (facet: keyof PropertyFacets) => {
      const counts = new Int32Array(this.values[facet].length);
      const codes = this.codes[facet];
      for (let i = 0; i < count; i++) {
        const code = codes[positions[i]];
        if (code >= 0) counts[code]++;
      }
      return this.values[facet]
        .map((value, code) => ({ value, count: counts[code] }))
        .filter((facetCount) => facetCount.count > 0)
        .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
        .slice(0, FACET_LIMITS[facet]);
    };
    return { property_type: ranked("property_type"), status: ranked("status"), market: ranked("market") };
  }
}

/** Positions of records by one field's value. */
function positionsBy<R>(records: readonly R[], key: (record: R) => string | null): Map<string, number[]> {
  const map = new Map<string, number[]>();
  records.forEach((record, position) => {
    const value = key(record);
    if (value === null) return;
    const list = map.get(value);
    if (list) list.push(position);
    else map.set(value, [position]);
  });
  return map;
}

export class PropertyIndex<R extends SearchableProperty> {
  private readonly records: readonly R[];
  /** Positions in each sort's order. */
  private readonly orders: Record<Exclude<PropertySort, "distance">, Int32Array>;
  /** Positions by the value of the fields a search names exactly, and by 0.01-degree cell. */
  private readonly byZip: Map<string, number[]>;
  private readonly byCity: Map<string, number[]>;
  private readonly byState: Map<string, number[]>;
  private readonly byMarket: Map<string, number[]>;
  private readonly byCell = new CellGrid<number>();
  private readonly facetCodes: FacetCodes;
  /**
   * The current search's work space, by position: its matches, their marks and their distances. A search never
   * awaits, so one runs at a time.
   */
  private readonly found: Int32Array;
  private readonly marked: Uint8Array;
  private readonly distance: Float64Array;

  constructor(records: readonly R[]) {
    this.records = records;
    const positions = records.map((_, position) => position);
    const order = (compare: (a: R, b: R) => number) => Int32Array.from([...positions].sort((a, b) => compare(records[a], records[b])));
    this.orders = {
      price_asc: order((a, b) => a.price - b.price || byId(a, b)),
      price_desc: order((a, b) => b.price - a.price || byId(a, b)),
      newest: order(newestFirst),
    };
    this.byZip = positionsBy(records, (r) => r.zip);
    this.byCity = positionsBy(records, (r) => r.city?.toLowerCase() ?? null);
    this.byState = positionsBy(records, (r) => r.state);
    this.byMarket = positionsBy(records, (r) => r.market);
    records.forEach((record, position) => this.byCell.add(record.latitude, record.longitude, position));
    this.facetCodes = new FacetCodes(records);
    this.found = new Int32Array(records.length);
    this.marked = new Uint8Array(records.length);
    this.distance = new Float64Array(records.length);
  }

  get size(): number {
    return this.records.length;
  }

  search(filters: PropertyFilters, sort: PropertySort, page: { offset: number; limit: number }, withFacets: boolean): SearchPage<R> {
    const matches = matcher(filters);
    const near = filters.near;
    const end = page.offset + page.limit;

    // Every match, found among the fewest records that can hold them; a radius keeps each one's distance.
    let total = 0;
    const consider = (position: number) => {
      const record = this.records[position];
      if (!matches(record)) return;
      if (near) {
        const distance = distanceKm(near.latitude, near.longitude, record.latitude, record.longitude);
        if (distance > near.radiusKm) return;
        this.distance[position] = distance;
      }
      this.found[total++] = position;
    };
    const candidates = this.candidates(filters);
    if (candidates) for (const position of candidates) consider(position);
    else for (let position = 0; position < this.records.length; position++) consider(position);
    const facets = withFacets ? { facets: this.facetCodes.count(this.found, total) } : {};
    const view = (position: number) => ({ ...this.records[position], distance_km: near ? this.distance[position] : null });

    if (sort === "distance") {
      const sorted = Array.from(this.found.subarray(0, total)).sort(
        (a, b) => this.distance[a] - this.distance[b] || byId(this.records[a], this.records[b]),
      );
      return { total, properties: sorted.slice(page.offset, end).map(view), ...facets };
    }
    // The page, read off the sort's order: walk it until the page is full, taking the marked matches.
    for (let i = 0; i < total; i++) this.marked[this.found[i]] = 1;
    const properties: (R & { distance_km: number | null })[] = [];
    if (page.offset < total) {
      let seen = 0;
      for (const position of this.orders[sort]) {
        if (this.marked[position] === 0) continue;
        if (seen >= page.offset) properties.push(view(position));
        if (++seen >= end) break;
      }
    }
    for (let i = 0; i < total; i++) this.marked[this.found[i]] = 0;
    return { total, properties, ...facets };
  }

  /** The smallest list of positions that holds every match, or null for all of them. */
  private candidates(filters: PropertyFilters): number[] | null {
    const lists: number[][] = [];
    if (given(filters.zip)) lists.push(this.byZip.get(filters.zip) ?? []);
    if (given(filters.city)) lists.push(this.byCity.get(filters.city.toLowerCase()) ?? []);
    if (given(filters.state)) lists.push(this.byState.get(filters.state.toUpperCase()) ?? []);
    if (filters.markets && filters.markets.length > 0) lists.push([...new Set(filters.markets)].flatMap((market) => this.byMarket.get(market) ?? []));
    const box = filters.near ? boxAround(filters.near.latitude, filters.near.longitude, filters.near.radiusKm) : filters.box;
    if (box) lists.push(this.inCells(box));
    if (lists.length === 0) return null;
    return lists.reduce((smallest, list) => (list.length < smallest.length ? list : smallest));
  }

  private inCells(box: Box): number[] {
    const positions: number[] = [];
    this.byCell.forEachNear(box, (position) => positions.push(position));
    return positions;
  }
}
