import type { PropertyRecord } from "../store/properties.js";
import type * as S from "../schemas.js";

/** A catalogue record as the API shows it. Days on market: no dataset has listing dates, so always null. */
export function propertyView(row: PropertyRecord): S.Property {
  const view: S.Property = {
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
    days_on_market: null,
    market: row.market,
    dataset: row.dataset,
    details: row.details,
  };
  if (row.distance_km !== null && row.distance_km !== undefined) view.distance_km = Math.round(row.distance_km * 1000) / 1000;
  return view;
}
