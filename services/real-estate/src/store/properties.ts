import { SqlFilter, facetCountsWithTotal, type FacetCount, type Page } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { boxAround, distanceSql, type Box } from "../domain/geo.js";
import type { Property } from "../domain/properties.js";

export type PropertyRecord = Omit<Property, "address_key" | "revision" | "price" | "sold_date" | "listed_date"> & {
  price: number;
  sold_date: string | null;
  listed_date: string | null;
  distance_km?: number | null;
};

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

const COLUMNS = `id, dataset, market, address, city, county, state, zip, price::float8 AS price, price_kind, bedrooms, bathrooms::float8 AS bathrooms,
  living_sqft, lot_sqft, year_built, year_renovated, property_type, status, latitude, longitude,
  to_char(sold_date, 'YYYY-MM-DD') AS sold_date, to_char(listed_date, 'YYYY-MM-DD') AS listed_date, details`;

/** Inside the box, edges included: the GiST index of migration 003 answers it. */
function insideBox(param: (value: unknown) => string, box: Box): string {
  return `point(longitude, latitude) <@ box(point(${param(box.minLon)}, ${param(box.minLat)}), point(${param(box.maxLon)}, ${param(box.maxLat)}))`;
}

function buildFilter(filters: PropertyFilters): { filter: SqlFilter; distance: string | null } {
  const filter = new SqlFilter();
  let distance: string | null = null;
  if (filters.near) {
    const { latitude, longitude, radiusKm } = filters.near;
    const box = boxAround(latitude, longitude, radiusKm);
    filter.where((p) => insideBox(p, box));
    distance = distanceSql("latitude", "longitude", `${filter.param(latitude)}::float8`, `${filter.param(longitude)}::float8`);
    filter.where((p) => `${distance} <= ${p(radiusKm)}`);
  }
  if (filters.box) {
    const box = filters.box;
    filter.where((p) => insideBox(p, box));
  }
  if (filters.city) filter.where((p) => `lower(city) = ${p(filters.city!.toLowerCase())}`);
  filter
    .equals("state", filters.state?.toUpperCase())
    .equals("zip", filters.zip)
    .atLeast("price", filters.minPrice)
    .atLeast("bathrooms", filters.bathrooms)
    .atLeast("living_sqft", filters.minSqft)
    .oneOf("property_type", filters.propertyTypes)
    .oneOf("status", filters.statuses)
    .oneOf("market", filters.markets);
  if (filters.maxPrice !== undefined) filter.where((p) => `price <= ${p(filters.maxPrice)}`);
  if (filters.maxSqft !== undefined) filter.where((p) => `living_sqft <= ${p(filters.maxSqft)}`);
  if (filters.bedrooms !== undefined) {
    if (filters.bedroomsExact) filter.equals("bedrooms", filters.bedrooms);
    else filter.atLeast("bedrooms", filters.bedrooms);
  }
  return { filter, distance };
}

function orderBy(sort: PropertySort, distance: string | null): string {
  switch (sort) {
    case "price_asc":
      return "price, id";
    case "price_desc":
      return "price DESC, id";
    case "distance":
      return `${distance} , id`;
    case "newest":
      return "coalesce(sold_date, listed_date) DESC NULLS LAST, id";
  }
}

export type PropertyFacets = Record<"property_type" | "status" | "market", FacetCount[]>;

const FACETS = { property_type: { column: "property_type", limit: 20 }, status: { column: "status", limit: 20 }, market: { column: "market", limit: 5 } };

/**
 * One page of matching properties, their total, and (when asked) the facets. Counting reads every match, so with
 * facets the total comes from the same pass as the facets (GROUPING SETS with the empty set).
 */
export async function searchProperties(
  db: Queryable,
  filters: PropertyFilters,
  sort: PropertySort,
  page: Page,
  withFacets = false,
): Promise<{ total: number; properties: PropertyRecord[]; facets?: PropertyFacets }> {
  const { filter, distance } = buildFilter(filters);
  let total: number;
  let facets: PropertyFacets | undefined;
  if (withFacets) {
    ({ total, facets } = await facetCountsWithTotal(db, { from: "properties", filter, facets: FACETS }));
  } else {
    total = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM properties ${filter.sql}`, filter.params)).rows[0].n;
  }
  if (total <= page.offset) return { total, properties: [], facets };
  const limit = filter.param(page.limit);
  const offset = filter.param(page.offset);
  const { rows } = await db.query<PropertyRecord>(
    `SELECT ${COLUMNS}, ${distance ?? "NULL::float8"} AS distance_km FROM properties ${filter.sql}
     ORDER BY ${orderBy(sort, distance)} LIMIT ${limit} OFFSET ${offset}`,
    filter.params,
  );
  return { total, properties: rows, facets };
}

export async function findProperty(db: Queryable, id: string): Promise<PropertyRecord | null> {
  const { rows } = await db.query<PropertyRecord>(`SELECT ${COLUMNS} FROM properties WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export interface AreaStats {
  zip: string;
  properties: number;
  median_price_per_sqft: number | null;
}

/** The median price per square foot of the zip code's records of the same kind (sales with sales, listings with listings). */
export async function areaStats(db: Queryable, zip: string, priceKind: string): Promise<AreaStats> {
  const { rows } = await db.query<{ n: number; median: number | null }>(
    `SELECT count(*)::int AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY price::float8 / living_sqft) AS median
     FROM properties WHERE zip = $1 AND price_kind = $2 AND living_sqft > 0`,
    [zip, priceKind],
  );
  return { zip, properties: rows[0].n, median_price_per_sqft: rows[0].median };
}

/** Properties whose normalized address is the given one (several records of one address: newest first). */
export async function propertiesAtAddress(db: Queryable, key: string): Promise<PropertyRecord[]> {
  const { rows } = await db.query<PropertyRecord>(
    `SELECT ${COLUMNS} FROM properties WHERE address_key = $1 ORDER BY coalesce(sold_date, listed_date) DESC NULLS LAST, id LIMIT 20`,
    [key],
  );
  return rows;
}

/** The closest addresses by trigram similarity, for a 404 that helps. */
export async function closeAddresses(db: Queryable, key: string, limit = 5): Promise<{ id: string; address: string; city: string | null; zip: string | null }[]> {
  const { rows } = await db.query<{ id: string; address: string; city: string | null; zip: string | null }>(
    `SELECT id, address, city, zip FROM properties WHERE address_key % $1
     ORDER BY similarity(address_key, $1) DESC, id LIMIT ${Math.trunc(limit)}`,
    [key],
  );
  return rows;
}
