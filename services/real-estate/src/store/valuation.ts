import type { Database, Queryable } from "@apiplat/storage";
import { distanceSql } from "../domain/geo.js";
import { CANDIDATES, calibrate, fitHedonicModel, type Sale, type ValuationModel } from "../domain/valuation.js";

const SALE_COLUMNS = `id, address, latitude, longitude, price::float8 AS price, living_sqft, bedrooms, bathrooms::float8 AS bathrooms, year_built,
  property_type, to_char(coalesce(sold_date, listed_date), 'YYYY-MM-DD') AS date`;

/** Radii tried in turn until enough candidates are found (a rural subject needs a wider net). */
const SEARCH_RADII_KM = [2, 6, 20, 60];

/** A record's place on a plane local to it; the GiST index of migration 002 walks it nearest first. */
const PLANE_POINT = "point(longitude * cos(radians(latitude)), latitude)";
/** Records read beyond CANDIDATES by plane distance, so that the nearest by great-circle distance are surely among them. */
const PLANE_MARGIN = 100;

/**
 * The CANDIDATES records nearest to a point within the smallest radius of SEARCH_RADII_KM that holds at least a
 * quarter of them, excluding the subject's own records. One query: the index gives the nearest records on the plane,
 * the exact distance orders them; the radius is then chosen among them (the nearest within r are a prefix).
 */
export async function candidateSales(db: Queryable, latitude: number, longitude: number, exclude: { id?: string; addressKey?: string | null }): Promise<(Sale & { market: string })[]> {
  const planeX = longitude * Math.cos((latitude * Math.PI) / 180);
  const { rows } = await db.query<Sale & { market: string; distance: number }>(
    `SELECT ${SALE_COLUMNS}, market, distance FROM (
       SELECT id, address, latitude, longitude, price, living_sqft, bedrooms, bathrooms, year_built, property_type, sold_date, listed_date, market,
         ${distanceSql("latitude", "longitude", "$1::float8", "$2::float8")} AS distance
       FROM properties
       WHERE living_sqft > 0 AND id <> $3 AND ($4 = '' OR address_key IS DISTINCT FROM $4)
       ORDER BY ${PLANE_POINT} <-> point($5::float8, $1::float8) LIMIT ${CANDIDATES + PLANE_MARGIN}
     ) near WHERE distance <= $6 ORDER BY distance, id LIMIT ${CANDIDATES}`,
    [latitude, longitude, exclude.id ?? "", exclude.addressKey ?? "", planeX, SEARCH_RADII_KM.at(-1)],
  );
  for (const radius of SEARCH_RADII_KM) {
    const within = rows.filter((row) => row.distance <= radius);
    if (within.length >= CANDIDATES / 4 || radius === SEARCH_RADII_KM.at(-1)) return within.map(({ distance: _distance, ...sale }) => sale);
  }
  return [];
}

/** How long a loaded model is used before it is read again (a refit shows within this time). */
export const MODEL_CACHE_MS = 30_000;

/** The models, read at most once per MODEL_CACHE_MS per market. */
export function modelReader(db: Queryable, now: () => number = Date.now): (market: string) => Promise<ValuationModel | null> {
  const cache = new Map<string, { model: ValuationModel | null; loadedAt: number }>();
  return async (market) => {
    const cached = cache.get(market);
    if (cached && cached.model && now() - cached.loadedAt < MODEL_CACHE_MS) return cached.model;
    const model = await loadModel(db, market);
    cache.set(market, { model, loadedAt: now() });
    return model;
  };
}

export async function loadModel(db: Queryable, market: string): Promise<ValuationModel | null> {
  const { rows } = await db.query<{ model: ValuationModel }>("SELECT model FROM valuation_models WHERE market = $1", [market]);
  return rows[0]?.model ?? null;
}

/** Refits one market's model on every sale the catalogue holds for it (run after each ingestion of the market). */
export async function refitModel(db: Database, market: string, now: Date): Promise<ValuationModel | null> {
  const { rows } = await db.query<Sale>(`SELECT ${SALE_COLUMNS} FROM properties WHERE market = $1 ORDER BY id`, [market]);
  if (rows.length < 50) {
    await db.query("DELETE FROM valuation_models WHERE market = $1", [market]);
    return null;
  }
  const model = calibrate(fitHedonicModel(market, rows), rows);
  await db.query(
    `INSERT INTO valuation_models (market, model, fitted_at) VALUES ($1, $2, $3)
     ON CONFLICT (market) DO UPDATE SET model = EXCLUDED.model, fitted_at = EXCLUDED.fitted_at`,
    [market, JSON.stringify(model), now],
  );
  return model;
}
