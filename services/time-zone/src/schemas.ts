import { Type, type TSchema } from "typebox";
import { DISAMBIGUATIONS } from "./domain/local-time.js";
import { MAX_YEAR, MIN_YEAR } from "./domain/iso-input.js";

/** Longer than any IANA name (the longest, America/Argentina/ComodRivadavia, has 32 characters). */
const MAX_ZONE_NAME_LENGTH = 64;
/** Room for "2026-03-29T02:30:00.123456789+05:45" and a little more. */
const MAX_TIME_LENGTH = 40;
export const MAX_QUERY_LENGTH = 64;

const oneOf = <T extends readonly string[]>(values: T, description: string, fallback?: T[number]) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    fallback === undefined ? { description } : { description, default: fallback },
  );
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const ZoneName = (description: string) =>
  Type.String({ minLength: 1, maxLength: MAX_ZONE_NAME_LENGTH, description: `${description}; any letter case; see /list` });

export const LookupQuery = Type.Object({
  tz: ZoneName("IANA zone name or alias, e.g. Europe/Berlin"),
  at: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_TIME_LENGTH,
      description: `ISO 8601 instant with Z or an offset, ${MIN_YEAR}-01-01T00:00:00Z to ${MAX_YEAR}-12-31T23:59:59Z; default now`,
    }),
  ),
});

const Transition = Type.Object({
  at: Type.String(),
  unix_timestamp: Type.Integer(),
  utc_offset: Type.String(),
  offset_seconds: Type.Integer(),
  abbreviation: Type.String(),
  dst_active: Type.Boolean(),
});

export const LookupData = Type.Object({
  timezone: Type.String(),
  canonical_timezone: Type.String(),
  country_codes: Type.Array(Type.String(), { description: "ISO 3166 codes of the countries using this zone (zone.tab)" }),
  datetime: Type.String({ description: "local date-time, no offset" }),
  date: Type.String(),
  time: Type.String(),
  iso_8601: Type.String({ description: "local date-time with its UTC offset" }),
  utc_datetime: Type.String(),
  unix_timestamp: Type.Integer(),
  weekday: Type.String(),
  day_of_year: Type.Integer(),
  week_number: Type.Integer({ description: "ISO 8601 week" }),
  utc_offset: Type.String(),
  offset_seconds: Type.Integer(),
  raw_offset: Type.Integer({ description: "standard offset in seconds, DST excluded" }),
  dst_offset: Type.Integer(),
  dst_active: Type.Boolean(),
  abbreviation: Type.String(),
  dst_from: nullable(Type.String()),
  dst_until: nullable(Type.String()),
  next_transition: nullable(Transition),
  tz_version: Type.String(),
});

export const ConvertQuery = Type.Object({
  time: Type.String({
    minLength: 1,
    maxLength: MAX_TIME_LENGTH,
    description: `local ISO 8601 date-time without offset (2026-03-29T02:30:00) or a date for midnight; years ${MIN_YEAR}-${MAX_YEAR}`,
  }),
  from: ZoneName("zone the time is read in"),
  to: ZoneName("zone to convert to"),
  disambiguation: Type.Optional(oneOf(DISAMBIGUATIONS, "for a time skipped or repeated by a DST change; default compatible", "compatible")),
});

const Reading = Type.Object({
  timezone: Type.String(),
  datetime: Type.String(),
  iso_8601: Type.String(),
  utc_offset: Type.String(),
  offset_seconds: Type.Integer(),
  abbreviation: Type.String(),
  dst_active: Type.Boolean(),
});

export const ConvertData = Type.Object({
  input: Type.Object({ time: Type.String(), timezone: Type.String() }),
  from: Reading,
  to: Reading,
  utc_datetime: Type.String(),
  unix_timestamp: Type.Integer(),
  offset_difference_seconds: Type.Integer(),
  resolution: Type.String({ description: "unique, gap (the time was skipped) or overlap (it happened twice)" }),
  disambiguation: Type.String(),
  shifted_seconds: Type.Integer(),
  candidates: Type.Array(Type.Object({ utc_datetime: Type.String(), iso_8601: Type.String(), abbreviation: Type.String() })),
  note: nullable(Type.String()),
  tz_version: Type.String(),
});

export const ListQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_QUERY_LENGTH,
      description: "case-insensitive part of a zone name, of an alias's target or of a country name; spaces match underscores",
    }),
  ),
  kind: Type.Optional(oneOf(["all", "canonical", "alias"] as const, "default all", "all")),
  country: Type.Optional(Type.String({ minLength: 2, maxLength: 2, description: "ISO 3166-1 alpha-2 code (DE, us): zones zone.tab places in that country" })),
});

export const ListData = Type.Object({
  tz_version: Type.String(),
  total: Type.Integer(),
  count: Type.Integer(),
  zones: Type.Array(
    Type.Object({
      name: Type.String(),
      kind: Type.String(),
      target: nullable(Type.String()),
      country_codes: Type.Array(Type.String()),
      comment: nullable(Type.String()),
      utc_offset: Type.String(),
      abbreviation: Type.String(),
      dst_active: Type.Boolean(),
    }),
  ),
});

export const TransitionsQuery = Type.Object({
  tz: ZoneName("IANA zone name or alias"),
  year: Type.Optional(
    Type.Integer({ minimum: MIN_YEAR, maximum: MAX_YEAR, description: `UTC calendar year, ${MIN_YEAR}-${MAX_YEAR}; default the current year` }),
  ),
});

const OffsetState = Type.Object({
  utc_offset: Type.String(),
  offset_seconds: Type.Integer(),
  abbreviation: Type.String(),
  dst_active: Type.Boolean(),
});

export const TransitionsData = Type.Object({
  timezone: Type.String(),
  canonical_timezone: Type.String(),
  year: Type.Integer(),
  count: Type.Integer(),
  transitions: Type.Array(
    Type.Object({
      at: Type.String(),
      unix_timestamp: Type.Integer(),
      local_before: Type.String({ description: "wall clock the change moves from" }),
      local_after: Type.String({ description: "wall clock the change moves to" }),
      shift_seconds: Type.Integer({ description: "positive: local time skipped (gap); negative: repeated (overlap)" }),
      before: OffsetState,
      after: OffsetState,
    }),
  ),
  tz_version: Type.String(),
});
