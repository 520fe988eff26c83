import { Type } from "typebox";
import { HOLIDAY_TYPES, MAX_YEAR, MIN_YEAR } from "./domain/types.js";

const MAX_COUNTRY_LENGTH = 64;
const MAX_TYPES_LENGTH = 64;
const MAX_SUBDIVISION_LENGTH = 32;

const CountryParam = Type.String({
  minLength: 2,
  maxLength: MAX_COUNTRY_LENGTH,
  description: "ISO 3166-1 alpha-2 country code, any case (e.g. DE). Anything else gets a 400 with suggestions.",
});

const TypesParam = Type.String({
  minLength: 1,
  maxLength: MAX_TYPES_LENGTH,
  description: `Comma-separated holiday types to include, from: ${HOLIDAY_TYPES.join(", ")}. Default: public.`,
});

const SubdivisionParam = Type.String({
  minLength: 1,
  maxLength: MAX_SUBDIVISION_LENGTH,
  description: "Only holidays observed in this subdivision (e.g. DE-BY) or local area (e.g. DE-BY-A): national ones plus its own.",
});

export const HolidaysQuery = Type.Object({
  country: CountryParam,
  year: Type.Optional(
    Type.Integer({
      minimum: MIN_YEAR,
      maximum: MAX_YEAR,
      description: `Calendar year, ${MIN_YEAR} to ${MAX_YEAR}. Default: the current year in the country's main time zone.`,
    }),
  ),
  types: Type.Optional(TypesParam),
  subdivision: Type.Optional(SubdivisionParam),
});

export const IsHolidayQuery = Type.Object({
  country: CountryParam,
  date: Type.Optional(
    Type.String({
      format: "date",
      description: `ISO date (YYYY-MM-DD), ${MIN_YEAR}-01-01 to ${MAX_YEAR}-12-31. Default: today in the country's main time zone.`,
    }),
  ),
  types: Type.Optional(TypesParam),
  subdivision: Type.Optional(SubdivisionParam),
});

export const NextQuery = Type.Object({
  country: CountryParam,
  types: Type.Optional(TypesParam),
  subdivision: Type.Optional(SubdivisionParam),
});

const HolidayTypeSchema = Type.Union([
  Type.Literal("public"),
  Type.Literal("bank"),
  Type.Literal("optional"),
  Type.Literal("school"),
  Type.Literal("observance"),
]);

const holidayProperties = {
  date: Type.String({ format: "date", description: "First day, in the country's main time zone." }),
  end_date: Type.String({ format: "date", description: "Last day (inclusive); equals date for one-day holidays." }),
  start: Type.String({ description: "Local start with UTC offset (not always midnight)." }),
  end: Type.String({ description: "Local end (exclusive) with UTC offset." }),
  name: Type.String({ description: "English name." }),
  local_name: Type.String({ description: "Name in the country's main language." }),
  country_code: Type.String(),
  global: Type.Boolean({ description: "true when observed in the whole country." }),
  counties: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: "Subdivision codes (e.g. DE-BY) where a regional holiday is observed state-wide; null when national.",
  }),
  regions: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: "Local-area codes (e.g. DE-BY-A) where it is observed only locally; null when none.",
  }),
  except_counties: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: "For a national holiday: subdivisions whose own calendar does without it; null when none.",
  }),
  types: Type.Array(HolidayTypeSchema),
  substitute: Type.Boolean({ description: "true for a substitute (observed) day replacing one on a weekend or another holiday." }),
  lunar_date: Type.Union([Type.Literal("observed"), Type.Literal("calculated"), Type.Null()], {
    description:
      "Lunar holidays (Islamic, Hebrew, Chinese…): observed = the date the authority published for that year; calculated = the computed calendar date. null for other holidays.",
  }),
  source: Type.Union([Type.String(), Type.Null()], {
    description: "Legal source of a holiday this service corrected or added over date-holidays' data; null for date-holidays' own data.",
  }),
};

export const HolidaySchema = Type.Object(holidayProperties);
const UpcomingHolidaySchema = Type.Object({
  ...holidayProperties,
  days_until: Type.Integer({ minimum: 0, description: "Days from today (in the country's time zone) to date." }),
});

const selectionProperties = {
  country_code: Type.String(),
  country_name: Type.String(),
  timezone: Type.String({ description: "The country's main IANA time zone: dates and times are given in it." }),
  local_language: Type.String({ description: "BCP 47 tag of the language local_name is in (the country's main language)." }),
  types: Type.Array(HolidayTypeSchema),
  subdivision: Type.Union([Type.String(), Type.Null()]),
  count: Type.Integer(),
};

export const HolidaysData = Type.Object({
  ...selectionProperties,
  year: Type.Integer(),
  holidays: Type.Array(HolidaySchema),
});

export const NextData = Type.Object({
  ...selectionProperties,
  from: Type.String({ format: "date", description: "Today in the country's main time zone." }),
  until: Type.String({ format: "date", description: "from + 365 days, inclusive." }),
  holidays: Type.Array(UpcomingHolidaySchema),
});

export const IsHolidayData = Type.Object({
  ...selectionProperties,
  date: Type.String({ format: "date" }),
  is_holiday: Type.Boolean({ description: "true when at least one holiday of the asked types is in force on date." }),
  holidays: Type.Array(HolidaySchema, { description: "The holidays in force on date, multi-day ones included." }),
});

const RegionSchema = Type.Object({ code: Type.String(), name: Type.String() });

export const CountriesData = Type.Object({
  count: Type.Integer(),
  countries: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      timezone: Type.String(),
      languages: Type.Array(Type.String(), { description: "BCP 47 tags, the main language first." }),
      subdivisions: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), regions: Type.Array(RegionSchema) })),
    }),
  ),
});
