/**
 * The catalogue's properties in memory, searched without a query: the filters, sorts and facets of GET /search over
 * every record (27,181 from the three datasets). A search looks only at the records that can match (those of the zip
 * code, city, state or market it names, or of the cells of its box or radius, whichever are fewest), keeps those that
 * pass each filter, one typed column at a time, and counts them all (the total and the facets need them). Its page:
 * read off the sort's order (computed once) when matches are many; when few, only they are ordered, by their places
 * in it. A distance sort orders only the page's worth of the matches.
 *
 * The semantics are SQL's: a filter on a field the record lacks (NULL) does not match it, ranges include their
 * edges, ties are broken by id in byte order (the C collation the catalogue's database uses).
 */
import { firstInOrder } from "@apiplat/catalogue";
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

type PropertyFacets = Record<"property_type" | "status" | "market", FacetCount[]>;

const FACET_LIMITS = { property_type: 20, status: 20, market: 5 } as const;

export interface SearchPage<R> {
  total: number;
  /** The page's records, each with its distance from a radius search's point (null without one). */
  properties: { property: R; distance_km: number | null }[];
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

const given = (value: string | undefined): value is string => value !== undefined && value !== "";

/** A text field's values as small codes by position (-1: the record lacks it), the code of each value, and its records. */
class Codes {
  readonly values: string[] = [];
  readonly byPosition: Int32Array;
  private readonly codeOf = new Map<string, number>();
  /** The positions of each code's records, in position order. */
  private readonly positions: number[][] = [];

  constructor(records: readonly SearchableProperty[], field: (record: SearchableProperty) => string | null) {
    this.byPosition = new Int32Array(records.length);
    records.forEach((record, position) => {
      const value = field(record);
      if (value === null) {
        this.byPosition[position] = -1;
        return;
      }
      let code = this.codeOf.get(value);
      if (code === undefined) {
        code = this.values.push(value) - 1;
        this.codeOf.set(value, code);
        this.positions.push([]);
      }
      this.byPosition[position] = code;
      this.positions[code].push(position);
    });
  }

  /** The positions of the records holding `value` (none for a value no record has). */
  positionsOf(value: string): readonly number[] {
    const code = this.codeOf.get(value);
    return code === undefined ? [] : this.positions[code];
  }

  /** The values of the positions `found[0..count)`, most frequent first, then by value; at most `limit`. */
  counts(found: Int32Array, count: number, limit: number): FacetCount[] {
    const counts = new Int32Array(this.values.length);
    for (let i = 0; i < count; i++) {
      const code = this.byPosition[found[i]];
      if (code >= 0) counts[code]++;
    }
    return this.values
      .map((value, code) => ({ value, count: counts[code] }))
      .filter((facetCount) => facetCount.count > 0)
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, limit);
  }

  /** Which codes the values name (a value no record has names none). */
  accepting(values: readonly string[]): Uint8Array {
    const accepted = new Uint8Array(this.values.length);
    for (const value of values) {
      const code = this.codeOf.get(value);
      if (code !== undefined) accepted[code] = 1;
    }
    return accepted;
  }
}

/** A numeric field by position, NaN where the record lacks it: NaN fails every comparison, as NULL fails SQL's. */
function column(records: readonly SearchableProperty[], field: (record: SearchableProperty) => number | null): Float64Array {
  return Float64Array.from(records, (record) => field(record) ?? Number.NaN);
}

/**
 * Keeps the positions in `found[0..count)` whose value lies in [min, max]; the kept count. One tight loop per filter
 * over typed arrays: a search over a whole state's records costs tens of microseconds, not a call per record and filter.
 */
function keepInRange(found: Int32Array, count: number, values: Float64Array, min: number, max: number): number {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const position = found[i];
    const value = values[position];
    if (value >= min && value <= max) found[kept++] = position;
  }
  return kept;
}

function keepAccepted(found: Int32Array, count: number, codes: Int32Array, accepted: Uint8Array): number {
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const position = found[i];
    const code = codes[position];
    if (code >= 0 && accepted[code] === 1) found[kept++] = position;
  }
  return kept;
}

export class PropertyIndex<R extends SearchableProperty> {
  private readonly records: readonly R[];
  /** Positions in each sort's order. */
  private readonly orders: Record<Exclude<PropertySort, "distance">, Int32Array>;
  /** Each position's place in each sort's order. */
  private readonly places: Record<Exclude<PropertySort, "distance">, Int32Array>;
  /** Positions by 0.01-degree cell (by value of the fields a search names exactly: `codes`). */
  private readonly byCell = new CellGrid<number>();
  private readonly columns: Record<"price" | "bedrooms" | "bathrooms" | "sqft" | "latitude" | "longitude", Float64Array>;
  private readonly codes: Record<"city" | "state" | "zip" | "property_type" | "status" | "market", Codes>;
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
    const placesIn = (order: Int32Array) => {
      const places = new Int32Array(order.length);
      order.forEach((position, place) => (places[position] = place));
      return places;
    };
    this.places = { price_asc: placesIn(this.orders.price_asc), price_desc: placesIn(this.orders.price_desc), newest: placesIn(this.orders.newest) };
    records.forEach((record, position) => this.byCell.add(record.latitude, record.longitude, position));
    this.columns = {
      price: column(records, (r) => r.price),
      bedrooms: column(records, (r) => r.bedrooms),
      bathrooms: column(records, (r) => r.bathrooms),
      sqft: column(records, (r) => r.living_sqft),
      latitude: column(records, (r) => r.latitude),
      longitude: column(records, (r) => r.longitude),
    };
    this.codes = {
      city: new Codes(records, (r) => r.city?.toLowerCase() ?? null),
      state: new Codes(records, (r) => r.state),
      zip: new Codes(records, (r) => r.zip),
      property_type: new Codes(records, (r) => r.property_type),
      status: new Codes(records, (r) => r.status),
      market: new Codes(records, (r) => r.market),
    };
    this.found = new Int32Array(records.length);
    this.marked = new Uint8Array(records.length);
    this.distance = new Float64Array(records.length);
  }

  get size(): number {
    return this.records.length;
  }

  search(filters: PropertyFilters, sort: PropertySort, page: { offset: number; limit: number }, withFacets: boolean): SearchPage<R> {
    const near = filters.near;
    const end = page.offset + page.limit;
    const total = this.match(filters);
    const facets = withFacets ? { facets: this.facetCounts(total) } : {};
    const view = (position: number) => ({ property: this.records[position], distance_km: near ? this.distance[position] : null });

    if (sort === "distance") {
      // Only the page's worth is put in order: a radius can hold thousands of records for a page of ten.
      const nearest = firstInOrder(
        Array.from(this.found.subarray(0, total)),
        (a, b) => this.distance[a] - this.distance[b] || byId(this.records[a], this.records[b]),
        end,
      );
      return { total, properties: nearest.slice(page.offset, end).map(view), ...facets };
    }
    if (page.offset >= total) return { total, properties: [], ...facets };
    const order = this.orders[sort];
    // Few matches: put only them in the sort's order, by each one's place in it.
    if (total * 8 < order.length) {
      const place = this.places[sort];
      const first = firstInOrder(Array.from(this.found.subarray(0, total)), (a, b) => place[a] - place[b], end);
      return { total, properties: first.slice(page.offset).map(view), ...facets };
    }
    // Many: walk the sort's order until the page is full, taking the marked matches.
    for (let i = 0; i < total; i++) this.marked[this.found[i]] = 1;
    const properties: SearchPage<R>["properties"] = [];
    for (let i = 0, seen = 0; i < order.length && seen < end; i++) {
      const position = order[i];
      if (this.marked[position] === 0) continue;
      if (seen >= page.offset) properties.push(view(position));
      seen++;
    }
    for (let i = 0; i < total; i++) this.marked[this.found[i]] = 0;
    return { total, properties, ...facets };
  }

  /** Puts every match's position in `found` (and a radius's distances in `distance`); their count. */
  private match(filters: PropertyFilters): number {
    const { found, columns, codes } = this;
    let count = 0;
    const candidates = this.candidates(filters);
    if (candidates) for (const list of candidates) for (let i = 0; i < list.length; i++) found[count++] = list[i];
    else for (; count < this.records.length; count++) found[count] = count;

    const range = (values: Float64Array, min = -Infinity, max = Infinity) => (count = keepInRange(found, count, values, min, max));
    const oneOf = (field: keyof typeof codes, values: readonly string[] | undefined) => {
      if (values && values.length > 0) count = keepAccepted(found, count, codes[field].byPosition, codes[field].accepting(values));
    };
    const inBox = (box: Box) => {
      range(columns.latitude, box.minLat, box.maxLat);
      range(columns.longitude, box.minLon, box.maxLon);
    };
    if (filters.near) inBox(boxAround(filters.near.latitude, filters.near.longitude, filters.near.radiusKm));
    if (filters.box) inBox(filters.box);
    if (given(filters.city)) oneOf("city", [filters.city.toLowerCase()]);
    if (given(filters.state)) oneOf("state", [filters.state.toUpperCase()]);
    if (given(filters.zip)) oneOf("zip", [filters.zip]);
    if (filters.minPrice !== undefined || filters.maxPrice !== undefined) range(columns.price, filters.minPrice, filters.maxPrice);
    if (filters.bathrooms !== undefined) range(columns.bathrooms, filters.bathrooms);
    if (filters.minSqft !== undefined || filters.maxSqft !== undefined) range(columns.sqft, filters.minSqft, filters.maxSqft);
    if (filters.bedrooms !== undefined) range(columns.bedrooms, filters.bedrooms, filters.bedroomsExact ? filters.bedrooms : Infinity);
    oneOf("property_type", filters.propertyTypes);
    oneOf("status", filters.statuses);
    oneOf("market", filters.markets);
    if (filters.near) count = this.keepWithin(filters.near, count);
    return count;
  }

  private facetCounts(total: number): PropertyFacets {
    const counts = (facet: keyof PropertyFacets) => this.codes[facet].counts(this.found, total, FACET_LIMITS[facet]);
    return { property_type: counts("property_type"), status: counts("status"), market: counts("market") };
  }

  /** Keeps the matches within the exact great-circle radius, noting each one's distance. */
  private keepWithin(near: NonNullable<PropertyFilters["near"]>, count: number): number {
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const position = this.found[i];
      const distance = distanceKm(near.latitude, near.longitude, this.columns.latitude[position], this.columns.longitude[position]);
      if (distance > near.radiusKm) continue;
      this.distance[position] = distance;
      this.found[kept++] = position;
    }
    return kept;
  }

  /** The smallest lists of positions (together) that hold every match, or null for all of them. */
  private candidates(filters: PropertyFilters): readonly (readonly number[])[] | null {
    const choices: (readonly (readonly number[])[])[] = [];
    const { zip, city, state, market } = this.codes;
    if (given(filters.zip)) choices.push([zip.positionsOf(filters.zip)]);
    if (given(filters.city)) choices.push([city.positionsOf(filters.city.toLowerCase())]);
    if (given(filters.state)) choices.push([state.positionsOf(filters.state.toUpperCase())]);
    if (filters.markets && filters.markets.length > 0) choices.push([...new Set(filters.markets)].map((value) => market.positionsOf(value)));
    const box = filters.near ? boxAround(filters.near.latitude, filters.near.longitude, filters.near.radiusKm) : filters.box;
    if (box) choices.push(this.byCell.cellsNear(box));
    if (choices.length === 0) return null;
    const size = (lists: readonly (readonly number[])[]) => lists.reduce((sum, list) => sum + list.length, 0);
    return choices.reduce((smallest, lists) => (size(lists) < size(smallest) ? lists : smallest));
  }
}
