import { undatedAsOf } from "../domain/properties.js";
import type { PropertyRecord } from "../store/properties.js";
import type * as S from "../schemas.js";

/** Each record's view, made once: records are never modified, and a page of fifty is asked again and again. */
const views = new WeakMap<PropertyRecord, S.Property>();

/**
 * A catalogue record as the API shows it, with its distance from a radius search's point when there is one. Days on
 * market: no dataset has listing dates, so always null.
 */
export function propertyView(row: PropertyRecord, distanceKm: number | null = null): S.Property {
  let view = views.get(row);
  if (!view) {
    view = viewOf(row);
    views.set(row, view);
  }
  return distanceKm === null ? view : { ...view, distance_km: Math.round(distanceKm * 1000) / 1000 };
}

function viewOf(row: PropertyRecord): S.Property {
  return {
    id: row.id,
    address: row.address,
    city: row.city,
    county: row.county,
    state: row.state,
    zip: row.zip,
    latitude: row.latitude,
    longitude: row.longitude,
    price: row.price,
    price_kind: row.price_kind,
    currency: "USD",
    price_per_sqft: row.living_sqft ? Math.round((row.price / row.living_sqft) * 100) / 100 : null,
    bedrooms: row.bedrooms,
    bathrooms: row.bathrooms,
    living_sqft: row.living_sqft,
    lot_sqft: row.lot_sqft,
    year_built: row.year_built,
    year_renovated: row.year_renovated,
    property_type: row.property_type,
    status: row.status,
    sold_date: row.sold_date,
    listed_date: row.listed_date,
    price_as_of: row.sold_date ?? row.listed_date ?? undatedAsOf(row.market) ?? "",
    days_on_market: null,
    market: row.market,
    dataset: row.dataset,
    details: row.details,
  };
}
