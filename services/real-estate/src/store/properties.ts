import type { Queryable } from "@apiplat/storage";
import type { Property } from "../domain/properties.js";

export type PropertyRecord = Omit<Property, "address_key" | "revision" | "price" | "sold_date" | "listed_date"> & {
  price: number;
  sold_date: string | null;
  listed_date: string | null;
};

/** A property as the API shows it, and as the in-memory snapshot holds it. */
export const PROPERTY_COLUMNS = `id, dataset, market, address, city, county, state, zip, price::float8 AS price, price_kind, bedrooms, bathrooms::float8 AS bathrooms,
  living_sqft, lot_sqft, year_built, year_renovated, property_type, status, latitude, longitude,
  to_char(sold_date, 'YYYY-MM-DD') AS sold_date, to_char(listed_date, 'YYYY-MM-DD') AS listed_date, details`;

export async function findProperty(db: Queryable, id: string): Promise<PropertyRecord | null> {
  const { rows } = await db.query<PropertyRecord>(`SELECT ${PROPERTY_COLUMNS} FROM properties WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

interface AreaStats {
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

/** The closest addresses by trigram similarity, for a 404 that helps. */
export async function closeAddresses(
  db: Queryable,
  key: string,
  limit = 5,
): Promise<{ id: string; address: string; city: string | null; zip: string | null }[]> {
  const { rows } = await db.query<{ id: string; address: string; city: string | null; zip: string | null }>(
    `SELECT id, address, city, zip FROM properties WHERE address_key % $1
     ORDER BY similarity(address_key, $1) DESC, id LIMIT ${Math.trunc(limit)}`,
    [key],
  );
  return rows;
}
