import { Type } from "typebox";
import { AMOUNT_MAX_FRACTION_DIGITS, AMOUNT_MAX_INTEGER_DIGITS } from "./domain/amount.js";

export const DEFAULT_BASE = "EUR";
/** Longest accepted symbols list, in characters (about 250 codes). */
const MAX_SYMBOLS_LENGTH = 1000;
export const MAX_TIMESERIES_DAYS = 366;
const MAX_PLACES = 12;
/** The first day of the ECB's reference rates (and of our data). */
export const EARLIEST_DATE = "1999-01-04";

const code = (description: string) =>
  Type.String({ minLength: 3, maxLength: 3, pattern: "^[A-Za-z]{3}$", description, errorMessage: "must be a three-letter currency code such as EUR" });
const isoDay = (description: string) =>
  Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description, errorMessage: "must be a date as YYYY-MM-DD, e.g. 2026-11-25" });

const Symbols = Type.String({
  minLength: 3,
  maxLength: MAX_SYMBOLS_LENGTH,
  description: `Comma-separated ISO 4217 codes restricting the rates (at most ${MAX_SYMBOLS_LENGTH} characters); default: every supported currency.`,
});
const Provenance = Type.Boolean({ default: false, description: "true adds, per currency, the bank and publication date of its rate." });

export const LatestQuery = Type.Object(
  {
    base: Type.Optional(code(`Currency the rates are expressed against (default ${DEFAULT_BASE}).`)),
    symbols: Type.Optional(Symbols),
    provenance: Type.Optional(Provenance),
  },
  { additionalProperties: false },
);

export const HistoricalParams = Type.Object({ date: isoDay(`A day from ${EARLIEST_DATE} to today (YYYY-MM-DD).`) });

export const TimeseriesQuery = Type.Object(
  {
    start: isoDay("First day (YYYY-MM-DD)."),
    end: isoDay(`Last day (YYYY-MM-DD), at most ${MAX_TIMESERIES_DAYS} days from start counting both.`),
    base: Type.Optional(code(`Currency the rates are expressed against (default ${DEFAULT_BASE}).`)),
    symbols: Type.Optional(Symbols),
  },
  { additionalProperties: false },
);

export const ConvertQuery = Type.Object(
  {
    from: code("Currency of the amount."),
    to: code("Currency to convert into."),
    amount: Type.String({
      minLength: 1,
      maxLength: AMOUNT_MAX_INTEGER_DIGITS + AMOUNT_MAX_FRACTION_DIGITS + 1,
      description: `A non-negative decimal, at most ${AMOUNT_MAX_INTEGER_DIGITS} digits before the point and ${AMOUNT_MAX_FRACTION_DIGITS} after.`,
    }),
    places: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_PLACES, description: "Decimals of the result (default: the minor unit of `to`, e.g. 2 for USD, 0 for JPY)." }),
    ),
    date: Type.Optional(isoDay("Convert at the rates of this day instead of the latest.")),
    provenance: Type.Optional(Provenance),
  },
  { additionalProperties: false },
);

const SourceIdSchema = Type.Union([
  Type.Literal("ecb"),
  Type.Literal("nbp-a"),
  Type.Literal("nbp-b"),
  Type.Literal("bdi"),
  Type.Literal("cbr"),
  Type.Literal("boc"),
]);
const ProvenanceMap = Type.Record(Type.String(), Type.Object({ source: SourceIdSchema, date: Type.String() }));
const RatesMap = Type.Record(Type.String(), Type.Number(), { description: "Units of each currency for 1 unit of base, 12 significant digits." });

export const RatesData = Type.Object({
  base: Type.String(),
  date: Type.String({ description: "The newest publication date among the rates used." }),
  oldest_date: Type.String({ description: "The oldest publication date among the rates used." }),
  age_days: Type.Integer({ description: "Days between `date` and today (UTC)." }),
  requested_date: Type.Optional(Type.String()),
  rates: RatesMap,
  provenance: Type.Optional(ProvenanceMap),
});

export const TimeseriesData = Type.Object({
  base: Type.String(),
  start_date: Type.String(),
  end_date: Type.String(),
  dates: Type.Integer(),
  rates: Type.Record(Type.String(), RatesMap),
});

export const ConvertData = Type.Object({
  from: Type.String(),
  to: Type.String(),
  amount: Type.String({ description: "The amount, as a decimal string." }),
  rate: Type.String({ description: "Units of `to` for 1 unit of `from`, 12 significant digits." }),
  result: Type.String({ description: "amount x rate rounded half away from zero to `places` decimals, as a decimal string." }),
  places: Type.Integer(),
  date: Type.String(),
  oldest_date: Type.String(),
  age_days: Type.Integer(),
  provenance: Type.Optional(ProvenanceMap),
});

export const CurrenciesData = Type.Object({
  count: Type.Integer(),
  date: Type.String(),
  currencies: Type.Array(
    Type.Object({
      code: Type.String(),
      name: Type.String(),
      minor_units: Type.Integer(),
      rate_source: Type.Union([SourceIdSchema, Type.Null()], { description: "The bank whose rate is used (null for EUR, the pivot)." }),
      rate_date: Type.Union([Type.String(), Type.Null()]),
      sources: Type.Array(SourceIdSchema, { description: "Every bank whose latest table quotes the currency." }),
    }),
  ),
});

export const SourcesData = Type.Object({
  sources: Type.Array(
    Type.Object({
      id: SourceIdSchema,
      name: Type.String(),
      home_currency: Type.String(),
      publishes: Type.String(),
      latest_date: Type.Union([Type.String(), Type.Null()]),
      tables: Type.Integer(),
      last_fetch: Type.Union([
        Type.Null(),
        Type.Object({ ok: Type.Boolean(), finished_at: Type.String(), attempts: Type.Integer(), error: Type.Union([Type.String(), Type.Null()]) }),
      ]),
    }),
  ),
});
