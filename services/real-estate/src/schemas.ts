import { FacetCounts, pageInfoFields, pageQueryFields, sortQuery } from "@apiplat/catalogue";
import { Type, type Static } from "typebox";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const Latitude = Type.Number({ minimum: -90, maximum: 90, description: "decimal degrees" });
const Longitude = Type.Number({ minimum: -180, maximum: 180, description: "decimal degrees" });
const Price = Type.Integer({ minimum: 0, maximum: 10_000_000_000, description: "US dollars" });

export const SORTS = ["price_asc", "price_desc", "newest", "distance"] as const;
const MAX_RADIUS_KM = 100;

export const SearchQuery = Type.Object({
  city: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: "city as the data spells it (case-insensitive): Sacramento, Brooklyn, New York..." }),
  ),
  state: Type.Optional(Type.String({ pattern: "^[a-zA-Z]{2}$", description: "two-letter state code" })),
  zip: Type.Optional(Type.String({ pattern: "^\\d{5}$", description: "five-digit ZIP code" })),
  lat: Type.Optional(Latitude),
  lon: Type.Optional(Longitude),
  radius_km: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_RADIUS_KM, description: `with lat/lon: up to ${MAX_RADIUS_KM} km (default 5)` })),
  bbox: Type.Optional(Type.String({ maxLength: 100, description: "a box west,south,east,north in degrees (GeoJSON order)" })),
  min_price: Type.Optional(Price),
  max_price: Type.Optional(Price),
  bedrooms: Type.Optional(Type.Integer({ minimum: 0, maximum: 50, description: "at least this many (exactly with bedrooms_exact=true)" })),
  bedrooms_exact: Type.Optional(Type.Boolean()),
  bathrooms: Type.Optional(Type.Number({ minimum: 0, maximum: 50, description: "at least this many" })),
  property_type: Type.Optional(
    Type.String({
      maxLength: 200,
      description: "comma-separated: single_family, condo, co_op, house, multi_family, multi_family_home, townhouse, land, condop, mobile_house",
    }),
  ),
  min_sqft: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  max_sqft: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  status: Type.Optional(Type.String({ maxLength: 200, description: "comma-separated: sold, for_sale, pending, contingent, foreclosure, coming_soon" })),
  market: Type.Optional(Type.String({ maxLength: 100, description: "comma-separated: king-county, sacramento, new-york" })),
  sort: sortQuery(SORTS, "distance (default with lat/lon), newest (default otherwise), price_asc, price_desc"),
  facets: Type.Optional(Type.Boolean({ description: "add counts by property_type, status and market" })),
  ...pageQueryFields,
});
export type SearchQuery = Static<typeof SearchQuery>;

export const Property = Type.Object({
  id: Type.String(),
  address: NullableString,
  city: NullableString,
  county: NullableString,
  state: Type.String(),
  zip: NullableString,
  latitude: Type.Number(),
  longitude: Type.Number(),
  price: Type.Number({ description: "sale price (price_kind sale) or asking price (list), USD" }),
  price_kind: Type.String({ description: "sale or list" }),
  currency: Type.Literal("USD"),
  price_per_sqft: NullableNumber,
  bedrooms: NullableInteger,
  bathrooms: NullableNumber,
  living_sqft: NullableInteger,
  lot_sqft: NullableInteger,
  year_built: NullableInteger,
  year_renovated: NullableInteger,
  property_type: NullableString,
  status: Type.String(),
  sold_date: NullableString,
  listed_date: NullableString,
  price_as_of: Type.String({
    description: "the date the price is as of: the sale date; for New York's undated listings, the date they were published by (2024-03-01)",
  }),
  days_on_market: NullableInteger,
  market: Type.String(),
  dataset: Type.String(),
  distance_km: Type.Optional(Type.Number()),
  details: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
});
export type Property = Static<typeof Property>;

export const PropertyPage = Type.Object({
  ...pageInfoFields,
  properties: Type.Array(Property),
  facets: Type.Optional(Type.Object({ property_type: FacetCounts, status: FacetCounts, market: FacetCounts })),
});

export const PropertyId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 80, pattern: "^[a-z]+-[0-9a-f]+(-[0-9]+)?$" }) });

export const PropertyDetail = Type.Intersect([
  Property,
  Type.Object({
    area: Type.Object({
      zip: NullableString,
      properties: Type.Integer({ description: "records of the same kind (sales or listings) in the ZIP code" }),
      median_price_per_sqft: NullableNumber,
      median_days_on_market: NullableNumber,
    }),
  }),
]);

export const EstimateQuery = Type.Object({
  property_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 80,
      pattern: "^[a-z]+-[0-9a-f]+(-[0-9]+)?$",
      description: "a catalogued record's id (from /search): values that property",
    }),
  ),
  address: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 200,
      description: "street address of a catalogued property (Sacramento, New York), optionally with city and ZIP after a comma",
    }),
  ),
  lat: Type.Optional(Latitude),
  lon: Type.Optional(Longitude),
  sqft: Type.Optional(Type.Integer({ minimum: 100, maximum: 100_000, description: "living area, square feet" })),
  bedrooms: Type.Optional(Type.Integer({ minimum: 0, maximum: 50 })),
  bathrooms: Type.Optional(Type.Number({ minimum: 0, maximum: 50 })),
  year_built: Type.Optional(Type.Integer({ minimum: 1700, maximum: 2100 })),
  property_type: Type.Optional(Type.String({ maxLength: 50 })),
  date: Type.Optional(
    Type.String({
      pattern: "^\\d{4}-\\d{2}-\\d{2}$",
      description: "the date the value is for, YYYY-MM-DD, within the market's sales and a month either side (default: the market's newest sale)",
    }),
  ),
});
export type EstimateQuery = Static<typeof EstimateQuery>;

export const Comparable = Type.Object({
  id: Type.String(),
  address: NullableString,
  latitude: Type.Number(),
  longitude: Type.Number(),
  distance_km: Type.Number(),
  similarity: Type.Number({ description: "1 / (1 + dissimilarity), in (0, 1]" }),
  price: Type.Number(),
  price_kind: Type.String(),
  date: NullableString,
  living_sqft: NullableInteger,
  bedrooms: NullableInteger,
  bathrooms: NullableNumber,
  year_built: NullableInteger,
  adjusted_price: Type.Integer({ description: "the comparable's price moved to the subject's attributes and date" }),
});

export const Estimate = Type.Object({
  price: Type.Integer(),
  price_low: Type.Integer(),
  price_high: Type.Integer(),
  currency: Type.Literal("USD"),
  interval_coverage: Type.Number({ description: "share of held-out sales the [price_low, price_high] interval is calibrated to hold" }),
  confidence: Type.String({ description: "high, medium or low" }),
  price_kind: Type.String({ description: "sale (King County, Sacramento) or list (New York: comparables are asking prices)" }),
  market: Type.String(),
  valuation_date: Type.String({
    description: "the date the value is for (YYYY-MM-DD): the one asked, else the market's newest sale; New York: the date its listings are as of",
  }),
  valuation_date_basis: Type.Union([Type.Literal("requested"), Type.Literal("newest_sale"), Type.Literal("listings_as_of")], {
    description:
      "requested (the date parameter), newest_sale (the market's newest sale), listings_as_of (New York's undated listings: published no later than this date)",
  }),
  last_sale: Type.Union(
    [
      Type.Object({
        id: Type.String(),
        date: Type.String(),
        price: Type.Number(),
        adjusted_price: Type.Integer({
          description: "the price moved to valuation_date with the market's time trend (King County); the price itself where the market has none",
        }),
      }),
      Type.Null(),
    ],
    {
      description:
        "the subject's own newest sale on or before valuation_date (never one of its comparables); null when the subject is not a catalogued property or has none",
    },
  ),
  listing: Type.Union([Type.Object({ id: Type.String(), price: Type.Number(), status: Type.String() }), Type.Null()], {
    description: "the subject's own listing (New York asking prices; never one of its comparables)",
  }),
  subject: Type.Object({
    id: NullableString,
    address: NullableString,
    latitude: Type.Number(),
    longitude: Type.Number(),
    living_sqft: Type.Integer(),
    bedrooms: NullableInteger,
    bathrooms: NullableNumber,
    year_built: NullableInteger,
    property_type: NullableString,
    identified_by: Type.Union([Type.Literal("property_id"), Type.Literal("address"), Type.Literal("location_and_attributes"), Type.Null()], {
      description: "how the subject was recognised as a catalogued property; null when it is none (or when several match its location and attributes)",
    }),
    excluded_records: Type.Array(Type.String(), {
      description:
        "records never used as comparables: the subject's own, and any that cannot be told from it (within 25 m, same living area within 2 % and year built)",
    }),
  }),
  method: Type.String(),
  comparables: Type.Array(Comparable),
});
export type Estimate = Static<typeof Estimate>;
