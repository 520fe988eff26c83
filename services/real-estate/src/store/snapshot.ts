/**
 * The catalogue held in the service's memory for /search and /estimate: every property (27,181 records from the
 * three datasets, 26 MB of heap) in a PropertyIndex, those with a living area in the NearbyRecords grid that
 * valuations draw comparables from, and the records of each address. It is read again when the valuation models
 * change, which every ingestion does (it refits them), checked at most every MODEL_CACHE_MS: a changed catalogue
 * shows within 30 s, as a refit model does. A catalogue of millions of records would want the database's indexes
 * instead (the property page, the ZIP code statistics and the address suggestions still query it). */
import type { Queryable } from "@apiplat/storage";
import { NearbyRecords, type CandidateRecord } from "../domain/nearby.js";
import { newestFirst, PropertyIndex } from "../domain/property-index.js";
import { propertyKey } from "../domain/properties.js";
import { PROPERTY_COLUMNS, type PropertyRecord } from "./properties.js";
import { MODEL_CACHE_MS } from "./valuation.js";

export type SnapshotRecord = PropertyRecord & { property_key: string | null };

export interface CatalogueSnapshot {
  properties: PropertyIndex<SnapshotRecord>;
  comparables: NearbyRecords;
  /** The records of each normalized street address (without city or ZIP), newest first. */
  atAddress(key: string): SnapshotRecord[];
  /** The records of one property (see propertyKey), newest first: several sales of one house. */
  ofProperty(key: string): SnapshotRecord[];
  /** One record by id. */
  byId(id: string): SnapshotRecord | undefined;
}

export type SnapshotReader = () => Promise<CatalogueSnapshot>;

export function snapshotReader(db: Queryable, now: () => number = Date.now): SnapshotReader {
  let current: { snapshot: Promise<CatalogueSnapshot>; version: string; checkedAt: number } | null = null;
  let checking: Promise<void> | null = null;
  const refresh = async () => {
    const version = await modelsVersion(db);
    if (current && current.version === version) {
      current.checkedAt = now();
      return;
    }
    const snapshot = loadSnapshot(db).catch((error: unknown) => {
      current = null; // read again by the next request
      throw error;
    });
    current = { snapshot, version, checkedAt: now() };
  };
  return async () => {
    if (!current || now() - current.checkedAt >= MODEL_CACHE_MS) {
      checking ??= refresh().finally(() => {
        checking = null;
      });
      await checking;
    }
    return current!.snapshot;
  };
}

/** Changes whenever a model is fitted, refitted or dropped, which every ingestion does. */
async function modelsVersion(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ version: string }>("SELECT count(*)::text || '/' || coalesce(max(fitted_at)::text, '') AS version FROM valuation_models");
  return rows[0].version;
}

async function loadSnapshot(db: Queryable): Promise<CatalogueSnapshot> {
  const { rows } = await db.query<PropertyRecord & { address_key: string | null }>(`SELECT ${PROPERTY_COLUMNS}, address_key FROM properties`);
  const comparables: CandidateRecord[] = [];
  const byAddress = new Map<string, SnapshotRecord[]>();
  const byProperty = new Map<string, SnapshotRecord[]>();
  const byId = new Map<string, SnapshotRecord>();
  const file = (map: Map<string, SnapshotRecord[]>, key: string, record: SnapshotRecord) => {
    const list = map.get(key);
    if (list) list.push(record);
    else map.set(key, [record]);
  };
  const properties = rows.map(({ address_key: addressKey, ...row }) => {
    const parcel = row.details.parcel_id;
    const key = propertyKey({ market: row.market, address_key: addressKey, zip: row.zip, parcel_id: typeof parcel === "string" ? parcel : null });
    const record: SnapshotRecord = { ...row, property_key: key };
    byId.set(record.id, record);
    if (addressKey) file(byAddress, addressKey, record);
    if (key) file(byProperty, key, record);
    if (row.living_sqft && row.living_sqft > 0) {
      comparables.push({
        id: row.id,
        address: row.address,
        latitude: row.latitude,
        longitude: row.longitude,
        price: row.price,
        living_sqft: row.living_sqft,
        bedrooms: row.bedrooms,
        bathrooms: row.bathrooms,
        year_built: row.year_built,
        property_type: row.property_type,
        date: row.sold_date ?? row.listed_date,
        market: row.market,
        property_key: key,
      });
    }
    return record;
  });
  for (const records of byAddress.values()) records.sort(newestFirst);
  for (const records of byProperty.values()) records.sort(newestFirst);
  return {
    properties: new PropertyIndex(properties),
    comparables: new NearbyRecords(comparables),
    atAddress: (key) => byAddress.get(key) ?? [],
    ofProperty: (key) => byProperty.get(key) ?? [],
    byId: (id) => byId.get(id),
  };
}
