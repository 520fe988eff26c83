import type { Database, Queryable } from "@apiplat/storage";
import { calibrate } from "../domain/calibration.js";
import type { CandidateRecord } from "../domain/nearby.js";
import { propertyKey } from "../domain/properties.js";
import { fitHedonicModel, type ValuationModel } from "../domain/valuation.js";

const SALE_COLUMNS = `id, market, address, address_key, zip, details->>'parcel_id' AS parcel_id, latitude, longitude, price::float8 AS price,
  living_sqft, bedrooms, bathrooms::float8 AS bathrooms, year_built, property_type,
  to_char(coalesce(sold_date, listed_date), 'YYYY-MM-DD') AS date`;

type SaleRow = Omit<CandidateRecord, "property_key"> & { address_key: string | null; zip: string | null; parcel_id: string | null };

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
  const { rows: found } = await db.query<SaleRow>(`SELECT ${SALE_COLUMNS} FROM properties WHERE market = $1 ORDER BY id`, [market]);
  const rows: CandidateRecord[] = found.map(({ address_key, zip, parcel_id, ...sale }) => ({
    ...sale,
    property_key: propertyKey({ market, address_key, zip, parcel_id }),
  }));
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
