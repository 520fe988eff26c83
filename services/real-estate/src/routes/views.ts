import type { EstimateResult } from "../app/estimate.js";
import { undatedAsOf } from "../domain/properties.js";
import { confidenceOf, priceAt } from "../domain/valuation.js";
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

const round100 = (value: number) => Math.round(value / 100) * 100;

/** A valuation as the API shows it: the value and its interval, the subject, its last sale and listing, the comparables. */
export function estimateView(result: EstimateResult, method: string, dateRequested: boolean): S.Estimate {
  const { subject, identifiedBy, market, model, date, valuation, ownIds, identified } = result;
  const value = Math.exp(valuation.log_value);
  const priceKind = market === "new-york" ? "list" : "sale";
  const lastSale = identified.find((r) => r.price_kind === "sale" && r.sold_date !== null && r.sold_date <= date);
  const listing = identified.find((r) => r.price_kind === "list");
  return {
    price: round100(value),
    price_low: round100(value * Math.exp(model.interval.low_log)),
    price_high: round100(value * Math.exp(model.interval.high_log)),
    currency: "USD" as const,
    interval_coverage: model.interval.coverage,
    confidence: confidenceOf(valuation, model),
    price_kind: priceKind,
    market,
    valuation_date: date,
    valuation_date_basis: dateRequested ? ("requested" as const) : model.newest_date ? ("newest_sale" as const) : ("listings_as_of" as const),
    last_sale: lastSale
      ? {
          id: lastSale.id,
          date: lastSale.sold_date!,
          price: lastSale.price,
          adjusted_price: Math.round(priceAt(lastSale.price, lastSale.sold_date, date, model)),
        }
      : null,
    listing: listing ? { id: listing.id, price: listing.price, status: listing.status } : null,
    subject: {
      id: subject.record?.id ?? identified[0]?.id ?? null,
      address: subject.record?.address ?? identified[0]?.address ?? null,
      latitude: subject.latitude,
      longitude: subject.longitude,
      living_sqft: subject.living_sqft,
      bedrooms: subject.bedrooms ?? null,
      bathrooms: subject.bathrooms ?? null,
      year_built: subject.year_built ?? null,
      property_type: subject.property_type ?? null,
      identified_by: identifiedBy,
      excluded_records: ownIds,
    },
    method,
    comparables: valuation.comparables.map((c) => ({
      id: c.sale.id,
      address: c.sale.address,
      latitude: c.sale.latitude,
      longitude: c.sale.longitude,
      distance_km: Math.round(c.distance_km * 1000) / 1000,
      similarity: Math.round(c.similarity * 1000) / 1000,
      price: c.sale.price,
      price_kind: priceKind,
      date: c.sale.date,
      living_sqft: c.sale.living_sqft,
      bedrooms: c.sale.bedrooms,
      bathrooms: c.sale.bathrooms,
      year_built: c.sale.year_built,
      adjusted_price: Math.round(c.adjusted_price),
    })),
  };
}
