import type { Database, Queryable } from "@apiplat/storage";
import { NearbyRecords, type CandidateRecord, type Exclusion } from "../domain/nearby.js";
import { calibrate, fitHedonicModel, type Sale, type ValuationModel } from "../domain/valuation.js";

const SALE_COLUMNS = `id, address, latitude, longitude, price::float8 AS price, living_sqft, bedrooms, bathrooms::float8 AS bathrooms, year_built,
  property_type, to_char(coalesce(sold_date, listed_date), 'YYYY-MM-DD') AS date`;

/**
 * The records /estimate draws comparables from, held in memory (27,399 records, about 10 MB, here) and read again
 * when the models change: every ingestion refits them, so a changed catalogue shows within MODEL_CACHE_MS, as a
 * refit model does. Before, each estimate asked PostgreSQL for the nearest 400 records (2 ms there, and as long
 * again to read 300 rows).
 */
export function candidateReader(db: Queryable, now: () => number = Date.now): (latitude: number, longitude: number, exclude: Exclusion) => Promise<CandidateRecord[]> {
  let current: { records: Promise<NearbyRecords>; version: string; checkedAt: number } | null = null;
  let checking: Promise<void> | null = null;
  const refresh = async () => {
    const version = await modelsVersion(db);
    if (!current || current.version !== version) {
      const records = loadNearbyRecords(db).catch((error: unknown) => {
        current = null; // asked again by the next estimate
        throw error;
      });
      current = { records, version, checkedAt: now() };
    }
    else current.checkedAt = now();
  };
  return async (latitude, longitude, exclude) => {
    if (!current || now() - current.checkedAt >= MODEL_CACHE_MS) {
      checking ??= refresh().finally(() => {
        checking = null;
      });
      await checking;
    }
    return (await current!.records).candidates(latitude, longitude, exclude);
  };
}

/** Changes whenever a model is fitted, refitted or dropped, which every ingestion does. */
async function modelsVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ version: string }>("SELECT count(*)::text || '/' || coalesce(max(fitted_at)::text, '') AS version FROM valuation_models");
  return rows[0].version;
}

async function loadNearbyRecords(db: Queryable): Promise<NearbyRecords> {
  const { rows } = await db.query<CandidateRecord>(`SELECT ${SALE_COLUMNS}, market, address_key FROM properties WHERE living_sqft > 0`);
  return new NearbyRecords(rows);
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
