/**
 * An automated valuation, step by step: who the subject is (a catalogued id or address, or a point with attributes),
 * which records are its own (never its comparables), the market's model and date, the comparables' value.
 */
import { ApiError, errors } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { distanceKm } from "../domain/geo.js";
import type { CandidateRecord } from "../domain/nearby.js";
import { addressKey, undatedAsOf } from "../domain/properties.js";
import {
  looksLikeSubject,
  SAME_SPOT_KM,
  subjectRecords,
  valuationDate,
  valueFromComparables,
  type Subject,
  type Valuation,
  type ValuationModel,
} from "../domain/valuation.js";
import type * as S from "../schemas.js";
import { closeAddresses } from "../store/properties.js";
import type { CatalogueSnapshot, SnapshotRecord } from "../store/snapshot.js";

interface EstimateDeps {
  db: Queryable;
  catalogue: CatalogueSnapshot;
  loadModel: (market: string) => Promise<ValuationModel | null>;
}

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

/** A subject given by a point and attributes is identified when the records on its spot that look like it are one property's. */
function identifiedProperty(subject: ResolvedSubject, onSpot: readonly CandidateRecord[]): { propertyKey: string | null; identifiedBy: IdentifiedBy } {
  if (subject.record) return { propertyKey: subject.record.property_key, identifiedBy: subject.identifiedBy };
  const lookalikeKeys = new Set(
    onSpot.filter((r) => looksLikeSubject(subject, r, distanceKm(subject.latitude, subject.longitude, r.latitude, r.longitude))).map((r) => r.property_key),
  );
  if (lookalikeKeys.size === 1 && !lookalikeKeys.has(null)) return { propertyKey: [...lookalikeKeys][0], identifiedBy: "location_and_attributes" };
  return { propertyKey: null, identifiedBy: subject.identifiedBy };
}

export interface EstimateResult {
  subject: ResolvedSubject;
  identifiedBy: IdentifiedBy;
  market: string;
  model: ValuationModel;
  date: string;
  valuation: Valuation;
  /** Every record excluded as the subject's own. */
  ownIds: string[];
  /** The records of the property the subject was identified as (by id, address, or its spot and attributes). */
  identified: SnapshotRecord[];
}

export async function estimate({ db, catalogue, loadModel }: EstimateDeps, query: S.EstimateQuery): Promise<EstimateResult> {
  const subject = await subjectOf(db, catalogue, query);
  // The subject's own records: its property's (when named by id or address), and those on its spot that look like it.
  const onSpot = catalogue.comparables.within(subject.latitude, subject.longitude, SAME_SPOT_KM);
  const own = subjectRecords(subject, subject.record?.property_key ?? null, onSpot);
  const { propertyKey, identifiedBy } = identifiedProperty(subject, onSpot);
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
  const ownRecords = [...own.keys].flatMap((key) => catalogue.ofProperty(key));
  const ownIds = [...new Set([...ownRecords.map((r) => r.id), ...own.ids])].sort();
  const identified = propertyKey ? catalogue.ofProperty(propertyKey) : [];
  return { subject, identifiedBy, market, model, date: dated.date, valuation, ownIds, identified };
}
