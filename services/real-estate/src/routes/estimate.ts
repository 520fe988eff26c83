import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ApiError, errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { addressKey } from "../domain/properties.js";
import { confidenceOf, valueFromComparables, type Subject } from "../domain/valuation.js";
import * as S from "../schemas.js";
import { closeAddresses, type PropertyRecord } from "../store/properties.js";
import type { CatalogueSnapshot, SnapshotReader } from "../store/snapshot.js";
import { modelReader } from "../store/valuation.js";

export interface EstimateRoutesOptions {
  db: Queryable;
  /** The catalogue in memory, whose records with a living area are the comparables. */
  snapshot: SnapshotReader;
}

const METHOD =
  "comparable sales: the 12 most similar records among the 300 nearest (distance, living area, age, type), each adjusted to the subject with the market's hedonic model fitted at ingestion (log price on log area, bedrooms, bathrooms, age and sale month where known), averaged with weights 1/(0.2 + dissimilarity); interval from leave-one-out calibration";

function isCalendarDay(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

const round100 = (value: number) => Math.round(value / 100) * 100;

/** The catalogued property an address names: the street part must match; a ZIP or city after a comma picks among several. */
async function propertyAt(db: Queryable, snapshot: CatalogueSnapshot, address: string): Promise<PropertyRecord> {
  const [street, ...rest] = address.split(",");
  const key = addressKey(street);
  if (key.length < 3) throw errors.validation("address", "must start with a street address such as \"3526 High St\"");
  const matches = snapshot.atAddress(key);
  const hint = rest.join(" ").toLowerCase();
  const zip = /\b(\d{5})\b/.exec(hint)?.[1];
  const chosen = matches.find((m) => (zip ? m.zip === zip : hint.trim() ? hint.includes((m.city ?? "").toLowerCase()) : true)) ?? (zip || hint.trim() ? undefined : matches[0]);
  if (chosen) return chosen;
  const close = await closeAddresses(db, key);
  const list = close.map((c) => `${c.address}, ${c.city ?? ""} ${c.zip ?? ""}`.replace(/\s+/g, " ").trim());
  throw new ApiError(
    404,
    "NOT_FOUND",
    list.length ? `No catalogued property is at "${address}". Close matches: ${list.join("; ")}.` : `No catalogued property is at "${address}", and no address is close to it.`,
    close.map((c) => ({ field: "address", issue: `close match: ${c.address}, ${c.city ?? ""} ${c.zip ?? ""} (id ${c.id})`.replace(/\s+/g, " ") })),
  );
}

interface ResolvedSubject extends Subject {
  id: string | null;
  address: string | null;
  addressKey: string | null;
}

async function subjectOf(db: Queryable, snapshot: CatalogueSnapshot, query: S.EstimateQuery): Promise<ResolvedSubject> {
  const attributes = { bedrooms: query.bedrooms, bathrooms: query.bathrooms, year_built: query.year_built, property_type: query.property_type?.toLowerCase(), date: query.date };
  if (query.address !== undefined) {
    if (query.lat !== undefined || query.lon !== undefined) throw errors.validation("address", "cannot be combined with lat/lon: give one or the other");
    const p = await propertyAt(db, snapshot, query.address);
    const sqft = query.sqft ?? p.living_sqft;
    if (!sqft) throw errors.validation("sqft", `is required: the catalogue does not know the living area of ${p.address}`);
    return {
      id: p.id,
      address: p.address,
      addressKey: p.address ? addressKey(p.address) : null,
      latitude: p.latitude,
      longitude: p.longitude,
      living_sqft: sqft,
      bedrooms: attributes.bedrooms ?? p.bedrooms,
      bathrooms: attributes.bathrooms ?? p.bathrooms,
      year_built: attributes.year_built ?? p.year_built,
      property_type: attributes.property_type ?? p.property_type,
      date: attributes.date,
    };
  }
  const missing = (["lat", "lon", "sqft"] as const).filter((f) => query[f] === undefined);
  if (missing.length) throw errors.validationMany(missing.map((field) => ({ field, issue: "is required without address (give address, or lat, lon and sqft)" })));
  return { id: null, address: null, addressKey: null, latitude: query.lat!, longitude: query.lon!, living_sqft: query.sqft!, ...attributes };
}

export const estimateRoutes: FastifyPluginAsyncTypebox<EstimateRoutesOptions> = async (app, { db, snapshot }) => {
  const loadModel = modelReader(db);
  app.get(
    "/estimate",
    {
      schema: {
        summary: "Automated valuation",
        description: `Value of a property given by a catalogued address or by its attributes. Method: ${METHOD}.`,
        querystring: S.EstimateQuery,
        response: { 200: successSchema(S.Estimate) },
      },
    },
    async (request) => {
      const query = request.query;
      if (query.date !== undefined && !isCalendarDay(query.date)) throw errors.validation("date", "must be a real calendar day, YYYY-MM-DD");
      const catalogue = await snapshot();
      const subject = await subjectOf(db, catalogue, query);
      const candidates = catalogue.comparables.candidates(subject.latitude, subject.longitude, { id: subject.id ?? undefined, addressKey: subject.addressKey });
      if (candidates.length === 0) {
        throw errors.unprocessable("No sale or listing within 60 km of this point: the catalogue covers King County (WA), the Sacramento area (CA) and New York City.", [
          { field: "lat", issue: "is more than 60 km from every catalogued property" },
        ]);
      }
      const market = candidates[0].market;
      const model = await loadModel(market);
      if (!model) throw errors.unavailable(`The valuation model of ${market} is not fitted yet: run npm run ingest -- real-estate.`);
      const valuation = valueFromComparables(subject, candidates.filter((c) => c.market === market), model);
      if (!valuation) throw errors.unprocessable(`No comparable with a known living area near this point in ${market}.`);
      const value = Math.exp(valuation.log_value);
      const priceKind = market === "new-york" ? "list" : "sale";
      return ok({
        price: round100(value),
        price_low: round100(value * Math.exp(model.interval.low_log)),
        price_high: round100(value * Math.exp(model.interval.high_log)),
        currency: "USD" as const,
        interval_coverage: model.interval.coverage,
        confidence: confidenceOf(valuation, model),
        price_kind: priceKind,
        market,
        valuation_date: model.features.includes("months") ? (subject.date ?? model.newest_date) : null,
        subject: {
          id: subject.id,
          address: subject.address,
          latitude: subject.latitude,
          longitude: subject.longitude,
          living_sqft: subject.living_sqft,
          bedrooms: subject.bedrooms ?? null,
          bathrooms: subject.bathrooms ?? null,
          year_built: subject.year_built ?? null,
          property_type: subject.property_type ?? null,
        },
        method: METHOD,
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
      });
    },
  );
};
