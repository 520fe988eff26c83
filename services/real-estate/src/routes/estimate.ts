import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ApiError, errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { addressKey, undatedAsOf } from "../domain/properties.js";
import {
  confidenceOf,
  looksLikeSubject,
  priceAt,
  SAME_SPOT_KM,
  subjectRecords,
  valuationDate,
  valueFromComparables,
  type Subject,
} from "../domain/valuation.js";
import { distanceKm } from "../domain/geo.js";
import * as S from "../schemas.js";
import { closeAddresses } from "../store/properties.js";
import type { CatalogueSnapshot, SnapshotReader, SnapshotRecord } from "../store/snapshot.js";
import { modelReader } from "../store/valuation.js";

export interface EstimateRoutesOptions {
  db: Queryable;
  /** The catalogue in memory, whose records with a living area are the comparables. */
  snapshot: SnapshotReader;
}

const METHOD =
  "comparable sales: the 12 most similar records among the 300 nearest (distance, living area, age, type), each adjusted to the subject with the market's hedonic model fitted at ingestion (log price on log area, bedrooms, bathrooms, age and sale month where known), averaged with weights 1/(0.2 + dissimilarity); never the subject's own records (its parcel or address, and any record within 25 m with its living area and year built), which are reported as last_sale; interval from leave-one-out calibration done the same way";

function isCalendarDay(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

const round100 = (value: number) => Math.round(value / 100) * 100;

/** The catalogued property an address names: the street part must match; a ZIP or city after a comma picks among several. */
async function propertyAt(db: Queryable, snapshot: CatalogueSnapshot, address: string): Promise<SnapshotRecord> {
  const [street, ...rest] = address.split(",");
  const key = addressKey(street);
  if (key.length < 3) throw errors.validation("address", 'must start with a street address such as "3526 High St"');
  const matches = snapshot.atAddress(key);
  const hint = rest.join(" ").toLowerCase();
  const zip = /\b(\d{5})\b/.exec(hint)?.[1];
  const chosen =
    matches.find((m) => (zip ? m.zip === zip : hint.trim() ? hint.includes((m.city ?? "").toLowerCase()) : true)) ??
    (zip || hint.trim() ? undefined : matches[0]);
  if (chosen) return chosen;
  const close = await closeAddresses(db, key);
  const list = close.map((c) => `${c.address}, ${c.city ?? ""} ${c.zip ?? ""}`.replace(/\s+/g, " ").trim());
  throw new ApiError(
    404,
    "NOT_FOUND",
    list.length
      ? `No catalogued property is at "${address}". Close matches: ${list.join("; ")}.`
      : `No catalogued property is at "${address}", and no address is close to it.`,
    close.map((c) => ({ field: "address", issue: `close match: ${c.address}, ${c.city ?? ""} ${c.zip ?? ""} (id ${c.id})`.replace(/\s+/g, " ") })),
  );
}

type IdentifiedBy = "property_id" | "address" | "location_and_attributes" | null;

interface ResolvedSubject extends Subject {
  /** The catalogued record the subject was found as (property_id, address), else null. */
  record: SnapshotRecord | null;
  identifiedBy: IdentifiedBy;
}

function onlyOneOf(query: S.EstimateQuery): void {
  const given = [
    query.property_id !== undefined && "property_id",
    query.address !== undefined && "address",
    (query.lat !== undefined || query.lon !== undefined) && "lat/lon",
  ].filter((g): g is string => typeof g === "string");
  if (given.length > 1)
    throw errors.validation(
      given[0] === "lat/lon" ? "lat" : given[0],
      `cannot be combined with ${given.slice(1).join(" or ")}: give one way of naming the subject`,
    );
}

async function subjectOf(db: Queryable, snapshot: CatalogueSnapshot, query: S.EstimateQuery): Promise<ResolvedSubject> {
  onlyOneOf(query);
  const attributes = { bedrooms: query.bedrooms, bathrooms: query.bathrooms, year_built: query.year_built, property_type: query.property_type?.toLowerCase() };
  let record: SnapshotRecord | null = null;
  let identifiedBy: IdentifiedBy = null;
  if (query.property_id !== undefined) {
    record = snapshot.byId(query.property_id) ?? null;
    if (!record) throw errors.notFound(`No property has the id ${query.property_id}; ids come from /search.`);
    identifiedBy = "property_id";
  } else if (query.address !== undefined) {
    record = await propertyAt(db, snapshot, query.address);
    identifiedBy = "address";
  }
  if (record) {
    const sqft = query.sqft ?? record.living_sqft;
    if (!sqft) throw errors.validation("sqft", `is required: the catalogue does not know the living area of ${record.address ?? record.id}`);
    return {
      record,
      identifiedBy,
      latitude: record.latitude,
      longitude: record.longitude,
      living_sqft: sqft,
      bedrooms: attributes.bedrooms ?? record.bedrooms,
      bathrooms: attributes.bathrooms ?? record.bathrooms,
      year_built: attributes.year_built ?? record.year_built,
      property_type: attributes.property_type ?? record.property_type,
    };
  }
  const missing = (["lat", "lon", "sqft"] as const).filter((f) => query[f] === undefined);
  if (missing.length) {
    throw errors.validationMany(
      missing.map((field) => ({ field, issue: "is required without address or property_id (give one of them, or lat, lon and sqft)" })),
    );
  }
  return { record: null, identifiedBy: null, latitude: query.lat!, longitude: query.lon!, living_sqft: query.sqft!, ...attributes };
}

export const estimateRoutes: FastifyPluginAsyncTypebox<EstimateRoutesOptions> = async (app, { db, snapshot }) => {
  const loadModel = modelReader(db);
  app.get(
    "/estimate",
    {
      schema: {
        summary: "Automated valuation",
        description: `Value of a property given by a catalogued id or address, or by its location and attributes. Method: ${METHOD}.`,
        querystring: S.EstimateQuery,
        response: { 200: successSchema(S.Estimate) },
      },
    },
    async (request) => {
      const query = request.query;
      if (query.date !== undefined && !isCalendarDay(query.date)) throw errors.validation("date", "must be a real calendar day, YYYY-MM-DD");
      const catalogue = await snapshot();
      const subject = await subjectOf(db, catalogue, query);

      // The subject's own records: its property's (when named by id or address), and those on its spot that look like it.
      const onSpot = catalogue.comparables.within(subject.latitude, subject.longitude, SAME_SPOT_KM);
      const own = subjectRecords(subject, subject.record?.property_key ?? null, onSpot);
      let identifiedBy = subject.identifiedBy;
      let propertyKey = subject.record?.property_key ?? null;
      if (!subject.record) {
        const lookalikeKeys = new Set(
          onSpot
            .filter((r) => looksLikeSubject(subject, r, distanceKm(subject.latitude, subject.longitude, r.latitude, r.longitude)))
            .map((r) => r.property_key),
        );
        if (lookalikeKeys.size === 1 && !lookalikeKeys.has(null)) {
          propertyKey = [...lookalikeKeys][0];
          identifiedBy = "location_and_attributes";
        }
      }
      const candidates = catalogue.comparables.candidates(subject.latitude, subject.longitude, own.excludes);
      if (candidates.length === 0) {
        throw errors.unprocessable(
          "No sale or listing within 60 km of this point: the catalogue covers King County (WA), the Sacramento area (CA) and New York City.",
          [{ field: "lat", issue: "is more than 60 km from every catalogued property" }],
        );
      }
      const market = subject.record?.market ?? candidates[0].market;
      const model = await loadModel(market);
      if (!model) throw errors.unavailable(`The valuation model of ${market} is not fitted yet: run npm run ingest -- real-estate.`);
      const dated = valuationDate(model, query.date, undatedAsOf(market));
      if ("error" in dated) throw errors.unprocessable(`date ${dated.error}.`, [{ field: "date", issue: dated.error }]);
      const valuation = valueFromComparables(
        { ...subject, date: dated.date },
        candidates.filter((c) => c.market === market),
        model,
      );
      if (!valuation) throw errors.unprocessable(`No comparable with a known living area near this point in ${market}.`);
      const value = Math.exp(valuation.log_value);
      const priceKind = market === "new-york" ? "list" : "sale";

      const ownRecords = [...own.keys].flatMap((key) => catalogue.ofProperty(key));
      const ownIds = [...new Set([...ownRecords.map((r) => r.id), ...own.ids])].sort();
      const identified = propertyKey ? catalogue.ofProperty(propertyKey) : [];
      const lastSale = identified.find((r) => r.price_kind === "sale" && r.sold_date !== null && r.sold_date <= dated.date);
      const listing = identified.find((r) => r.price_kind === "list");
      return ok({
        price: round100(value),
        price_low: round100(value * Math.exp(model.interval.low_log)),
        price_high: round100(value * Math.exp(model.interval.high_log)),
        currency: "USD" as const,
        interval_coverage: model.interval.coverage,
        confidence: confidenceOf(valuation, model),
        price_kind: priceKind,
        market,
        valuation_date: dated.date,
        valuation_date_basis: query.date !== undefined ? ("requested" as const) : model.newest_date ? ("newest_sale" as const) : ("listings_as_of" as const),
        last_sale: lastSale
          ? {
              id: lastSale.id,
              date: lastSale.sold_date!,
              price: lastSale.price,
              adjusted_price: Math.round(priceAt(lastSale.price, lastSale.sold_date, dated.date, model)),
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
