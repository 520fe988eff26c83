/** Pure rules that turn the three datasets' records into catalogue properties: ids, addresses, types, statuses. */
import { createHash } from "node:crypto";

export type Market = "king-county" | "sacramento" | "new-york";
type PriceKind = "sale" | "list";

export interface Property {
  id: string;
  dataset: string;
  market: Market;
  address: string | null;
  /** The address normalized for matching (see addressKey). */
  address_key: string | null;
  city: string | null;
  county: string | null;
  state: string;
  zip: string | null;
  price: number;
  price_kind: PriceKind;
  bedrooms: number | null;
  bathrooms: number | null;
  living_sqft: number | null;
  lot_sqft: number | null;
  year_built: number | null;
  year_renovated: number | null;
  property_type: string | null;
  status: string;
  latitude: number;
  longitude: number;
  sold_date: string | null;
  listed_date: string | null;
  /** Dataset-specific facts (King County's grade, view, condition...; the New York broker). */
  details: Record<string, string | number | boolean>;
  revision: number;
}

export class InvalidRecord extends Error {}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** A number from a CSV cell; null when empty; throws for text that is not a number. */
function numberOf(value: string | undefined, field: string): number | null {
  const text = (value ?? "").trim().replace(/^"|"$/g, "");
  if (text === "") return null;
  const n = Number(text);
  if (!Number.isFinite(n)) throw new InvalidRecord(`${field} "${text}" is not a number`);
  return n;
}

/** A count or area where 0 means "not recorded" in these files (a lot has no bedrooms listed as 0). */
function positiveOrNull(value: number | null): number | null {
  return value === null || value <= 0 ? null : value;
}

function requiredNumber(value: string | undefined, field: string): number {
  const n = numberOf(value, field);
  if (n === null) throw new InvalidRecord(`${field} is missing`);
  return n;
}

export function coordinates(latText: string | undefined, lonText: string | undefined): { latitude: number; longitude: number } {
  const latitude = requiredNumber(latText, "latitude");
  const longitude = requiredNumber(lonText, "longitude");
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || (latitude === 0 && longitude === 0)) {
    throw new InvalidRecord(`coordinates ${latitude},${longitude} are not a place`);
  }
  return { latitude, longitude };
}

const STREET_WORDS: Record<string, string> = {
  street: "st",
  avenue: "ave",
  av: "ave",
  road: "rd",
  drive: "dr",
  boulevard: "blvd",
  lane: "ln",
  court: "ct",
  place: "pl",
  terrace: "ter",
  circle: "cir",
  parkway: "pkwy",
  highway: "hwy",
  square: "sq",
  way: "way",
  north: "n",
  south: "s",
  east: "e",
  west: "w",
  apartment: "apt",
  unit: "unit",
  "#": "unit",
};

/** An address reduced for matching: lower case, no punctuation, street words abbreviated ("Street" -> "st"). */
export function addressKey(address: string): string {
  return address
    .toLowerCase()
    .replace(/#/g, " unit ")
    .replace(/[^a-z0-9 ]+/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => STREET_WORDS[word] ?? word)
    .join(" ");
}

/** "SACRAMENTO" -> "Sacramento", "EL DORADO HILLS" -> "El Dorado Hills". */
export function titleCase(text: string): string {
  return text.toLowerCase().replace(/\b[a-z]/g, (c) => c.toUpperCase());
}

/** A type name as an identifier: "Multi-family home" -> "multi_family_home". */
function typeId(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

/** The city of a ZIP code (the USPS mailing city), or null when the table does not know it. */
type CityOfZip = (zip: string) => string | null;

/**
 * The New York file carries no dates. Its listings were collected about 2023 and the file was published no later
 * than 2024-03-01 (the earliest public copy found, github.com/44-566-Machine-Learning-S24/ml-s24-project-Goutamkurri):
 * the date its asking prices are as of, at the latest.
 */
const NEW_YORK_LISTINGS_AS_OF = "2024-03-01";

/** The date an undated market's prices are as of (New York's listings); null for markets whose records are dated. */
export function undatedAsOf(market: string): string | null {
  return market === "new-york" ? NEW_YORK_LISTINGS_AS_OF : null;
}

/**
 * King County (kc_house_data.csv): sales; no street address, city, type or listing status in the file. The city is
 * the ZIP code's USPS mailing city (`cityOfZip`), since the file has none.
 */
export function kingCountyProperty(record: Record<string, string>, line: number, cityOfZip: CityOfZip = () => null): Property {
  const parcel = (record.id ?? "").replace(/"/g, "");
  const date = /^"?(\d{4})(\d{2})(\d{2})T/.exec(record.date ?? "");
  if (!/^\d+$/.test(parcel)) throw new InvalidRecord(`id "${record.id}" is not a parcel number`);
  if (!date) throw new InvalidRecord(`date "${record.date}" is not a YYYYMMDDT000000 date`);
  const soldDate = `${date[1]}-${date[2]}-${date[3]}`;
  const renovated = positiveOrNull(numberOf(record.yr_renovated, "yr_renovated"));
  const details: Property["details"] = {};
  for (const [field, name] of [
    ["floors", "floors"],
    ["condition", "condition"],
    ["grade", "grade"],
    ["view", "view"],
    ["sqft_above", "sqft_above"],
    ["sqft_basement", "sqft_basement"],
    ["sqft_living15", "neighbors_living_sqft"],
    ["sqft_lot15", "neighbors_lot_sqft"],
  ] as const) {
    const value = numberOf(record[field], field);
    if (value !== null) details[name] = value;
  }
  const waterfront = numberOf(record.waterfront, "waterfront");
  if (waterfront !== null) details.waterfront = waterfront === 1;
  details.parcel_id = parcel;
  const zip = (record.zipcode ?? "").replace(/"/g, "") || null;
  const city = zip ? cityOfZip(zip) : null;
  if (city) details.city_from_zip = true;
  return {
    id: `kc-${parcel}-${soldDate.replace(/-/g, "")}`,
    dataset: "king-county-sales",
    market: "king-county",
    address: null,
    address_key: null,
    city,
    county: "King County",
    state: "WA",
    zip,
    price: requiredNumber(record.price, "price"),
    price_kind: "sale",
    bedrooms: numberOf(record.bedrooms, "bedrooms"),
    bathrooms: numberOf(record.bathrooms, "bathrooms"),
    living_sqft: positiveOrNull(numberOf(record.sqft_living, "sqft_living")),
    lot_sqft: positiveOrNull(numberOf(record.sqft_lot, "sqft_lot")),
    year_built: positiveOrNull(numberOf(record.yr_built, "yr_built")),
    year_renovated: renovated,
    property_type: null,
    status: "sold",
    ...coordinates(record.lat, record.long),
    sold_date: soldDate,
    listed_date: null,
    details,
    revision: line,
  };
}

const MONTHS: Record<string, string> = {
  Jan: "01",
  Feb: "02",
  Mar: "03",
  Apr: "04",
  May: "05",
  Jun: "06",
  Jul: "07",
  Aug: "08",
  Sep: "09",
  Oct: "10",
  Nov: "11",
  Dec: "12",
};

/** "Wed May 21 00:00:00 EDT 2008" -> "2008-05-21". */
function parseSacramentoDate(text: string): string | null {
  const m = /^\w{3} (\w{3}) (\d{1,2}) [\d:]+ \w+ (\d{4})$/.exec(text.trim());
  if (!m || !MONTHS[m[1]]) return null;
  return `${m[3]}-${MONTHS[m[1]]}-${m[2].padStart(2, "0")}`;
}

const SACRAMENTO_TYPES: Record<string, string> = { Residential: "single_family", Condo: "condo", "Multi-Family": "multi_family" };

/** Sacramento (Sacramentorealestatetransactions.csv): sales of one week of May 2008 with full addresses. */
export function sacramentoProperty(record: Record<string, string>, line: number): Property {
  const street = (record.street ?? "").trim();
  if (!street) throw new InvalidRecord("street is missing");
  const soldDate = parseSacramentoDate(record.sale_date ?? "");
  if (!soldDate) throw new InvalidRecord(`sale_date "${record.sale_date}" is not a date like "Wed May 21 00:00:00 EDT 2008"`);
  const zip = (record.zip ?? "").trim() || null;
  const address = titleCase(street);
  return {
    id: `sac-${digest(`${street}|${zip}|${soldDate}|${record.price}`)}`,
    dataset: "sacramento-sales",
    market: "sacramento",
    address,
    address_key: addressKey(address),
    city: record.city ? titleCase(record.city.trim()) : null,
    county: null,
    state: (record.state ?? "CA").trim() || "CA",
    zip,
    price: requiredNumber(record.price, "price"),
    price_kind: "sale",
    bedrooms: positiveOrNull(numberOf(record.beds, "beds")),
    bathrooms: positiveOrNull(numberOf(record.baths, "baths")),
    living_sqft: positiveOrNull(numberOf(record.sq_ft, "sq_ft")),
    lot_sqft: null,
    year_built: null,
    year_renovated: null,
    // "Unkown" (sic) in one row: the file does not know the type.
    property_type: SACRAMENTO_TYPES[record.type ?? ""] ?? null,
    status: "sold",
    ...coordinates(record.latitude, record.longitude),
    sold_date: soldDate,
    listed_date: null,
    details: {},
    revision: line,
  };
}

/** New York's TYPE mixes the property type ("Condo for sale") and the listing status ("Pending"). */
function newYorkTypeAndStatus(type: string): { property_type: string | null; status: string } {
  const text = type.trim();
  const forSale = /^(.*) for sale$/i.exec(text);
  if (forSale) return { property_type: typeId(forSale[1]), status: "for_sale" };
  if (/^for sale$/i.test(text)) return { property_type: null, status: "for_sale" };
  return { property_type: null, status: typeId(text) || "for_sale" };
}

/**
 * The New York file fills unknown areas and bath counts with the column's mean (2184.207862 sq ft in 1,621 rows,
 * 2.3738608579684373 baths in 302): a value that is not a whole number of steps is such a filler, so null.
 */
function unlessFilledIn(value: number | null, step: number): number | null {
  if (value === null) return null;
  return Math.abs(value / step - Math.round(value / step)) < 1e-9 ? value : null;
}

/** "New York, NY 10022" -> city, state, zip. */
function parseCityStateZip(text: string): { city: string | null; state: string | null; zip: string | null } {
  const m = /^([^,]+),\s*([A-Z]{2})(?:\s*(\d{5}))?$/.exec(text.trimEnd());
  if (!m) return { city: null, state: null, zip: null };
  return { city: m[1].trim(), state: m[2], zip: m[3] ?? null };
}

/**
 * The county of a New York listing: the file's address components are shifted from row to row (a county such as
 * "Kings County" stands in ADMINISTRATIVE_AREA_LEVEL_2, LOCALITY or SUBLOCALITY), so the first of them that names a
 * county; null when none does (38 of 4,801 rows).
 */
function newYorkCounty(record: Record<string, string>): string | null {
  for (const column of ["ADMINISTRATIVE_AREA_LEVEL_2", "LOCALITY", "SUBLOCALITY"]) {
    const value = (record[column] ?? "").trim();
    if (/^[A-Z][A-Za-z .'-]* County$/.test(value)) return value;
  }
  return null;
}

/** New York (NY-House-Dataset.csv): for-sale listings (asking prices); no year built, lot size or listing date. */
export function newYorkProperty(record: Record<string, string>, line: number): Property {
  const address = (record.ADDRESS ?? "").trim();
  if (!address) throw new InvalidRecord("ADDRESS is missing");
  const place = parseCityStateZip(record.STATE ?? "");
  const { property_type, status } = newYorkTypeAndStatus(record.TYPE ?? "");
  const price = requiredNumber(record.PRICE, "PRICE");
  const broker = (record.BROKERTITLE ?? "").replace(/^Brokered by\s*/i, "").trim();
  const details: Property["details"] = {};
  if (broker) details.broker = broker;
  if (record.FORMATTED_ADDRESS) details.formatted_address = record.FORMATTED_ADDRESS.trim();
  if (record.SUBLOCALITY) details.sublocality = record.SUBLOCALITY.trim();
  return {
    id: `nyc-${digest(`${address}|${record.STATE}|${price}|${record.TYPE}|${broker}`)}`,
    dataset: "new-york-listings",
    market: "new-york",
    address,
    address_key: addressKey(address),
    city: place.city,
    county: newYorkCounty(record),
    state: place.state ?? "NY",
    zip: place.zip,
    price,
    price_kind: "list",
    bedrooms: positiveOrNull(numberOf(record.BEDS, "BEDS")),
    bathrooms: positiveOrNull(unlessFilledIn(numberOf(record.BATH, "BATH"), 0.5)),
    living_sqft: positiveOrNull(unlessFilledIn(numberOf(record.PROPERTYSQFT, "PROPERTYSQFT"), 1)),
    lot_sqft: null,
    year_built: null,
    year_renovated: null,
    property_type,
    status,
    ...coordinates(record.LATITUDE, record.LONGITUDE),
    sold_date: null,
    listed_date: null,
    details,
    revision: line,
  };
}

/**
 * What makes two records one property: King County's parcel number; elsewhere the normalized street address with
 * its ZIP code (a unit number is part of the address). Null when a record has neither.
 */
export function propertyKey(record: { market: string; address_key: string | null; zip: string | null; parcel_id?: string | null }): string | null {
  if (record.market === "king-county") return record.parcel_id ? `kc:${record.parcel_id}` : null;
  return record.address_key ? `${record.market}:${record.address_key}|${record.zip ?? ""}` : null;
}
