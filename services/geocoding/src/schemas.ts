import { Type } from "typebox";
import { DEFAULT_MAX_DISTANCE_KM, MAX_MAX_DISTANCE_KM } from "./domain/reverse.js";

export const MAX_QUERY_LENGTH = 200;
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

const LanguageParam = Type.String({
  minLength: 2,
  maxLength: 2,
  description: "ISO 639-1 code (GET /languages lists them); localizes place and country names",
});

export const SearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: 2,
      maxLength: MAX_QUERY_LENGTH,
      description: 'a city or town name, optionally followed by qualifiers: "Paris, Texas", "Berlin, Germany"',
    }),
    limit: Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT }),
    language: Type.Optional(LanguageParam),
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2, description: "ISO 3166-1 alpha-2 code: only places of that country" })),
  },
  { additionalProperties: false },
);

export const ReverseQuery = Type.Object(
  {
    lat: Type.Number({ minimum: -90, maximum: 90, description: "latitude in decimal degrees" }),
    lon: Type.Number({ minimum: -180, maximum: 180, description: "longitude in decimal degrees" }),
    max_distance_km: Type.Number({
      minimum: 0,
      maximum: MAX_MAX_DISTANCE_KM,
      default: DEFAULT_MAX_DISTANCE_KM,
      description: "beyond this distance to the nearest place, locality/admin1/country/timezone are null",
    }),
    language: Type.Optional(LanguageParam),
  },
  { additionalProperties: false },
);

export const PlaceParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647, description: "GeoNames id" }),
});

export const PlaceQuery = Type.Object({ language: Type.Optional(LanguageParam) }, { additionalProperties: false });

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const PlaceSchema = Type.Object({
  id: Type.Integer({ description: "GeoNames id" }),
  name: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
  country: Type.String(),
  country_code: Type.String(),
  admin1: NullableString,
  timezone: Type.String(),
  population: Type.Integer(),
  feature_code: Type.String({ description: "GeoNames feature code: PPLC capital, PPLA region seat, PPL place..." }),
});

export const SearchData = Type.Object({
  query: Type.Object({
    q: Type.String(),
    name: Type.String({ description: "the place-name part of q as it was matched (folded)" }),
    qualifiers: Type.Array(Type.String()),
    limit: Type.Integer(),
    language: NullableString,
    country: NullableString,
  }),
  count: Type.Integer(),
  results: Type.Array(PlaceSchema),
});

export const ReverseData = Type.Object({
  latitude: Type.Number(),
  longitude: Type.Number(),
  within_max_distance: Type.Boolean(),
  locality: NullableString,
  admin1: NullableString,
  country: NullableString,
  country_code: NullableString,
  timezone: NullableString,
  distance_km: Type.Number(),
  max_distance_km: Type.Number(),
  nearest_place: Type.Object({ ...PlaceSchema.properties, distance_km: Type.Number() }),
});

export const LanguagesData = Type.Object({
  count: Type.Integer(),
  languages: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      localized_place_names: Type.Integer(),
      localized_country_names: Type.Boolean(),
    }),
  ),
});
