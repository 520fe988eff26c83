import { pageInfoFields, pageQueryFields } from "@apiplat/catalogue";
import { Type, type Static } from "typebox";
import { MAX_ID_LENGTH } from "./domain/ids.js";

const NullableString = Type.Union([Type.String(), Type.Null()]);
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const MAX_EMPLOYEES_FILTER = 10_000_000;
const MAX_FILINGS = 100;
export const DEFAULT_FILINGS = 10;

export const SearchQuery = Type.Object({
  name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: "company name, typos tolerated; legal suffixes (Inc, Corp, Ltd, PLC, LLC, Co...) are ignored" }),
  ),
  ticker: Type.Optional(
    Type.String({
      pattern: "^[A-Za-z0-9][A-Za-z0-9.\\-]{0,11}$",
      description: "a ticker symbol (BRK-B, BRK.B and BRKB are the same)",
      errorMessage: "must be a ticker symbol such as AAPL or BRK-B (letters, digits, . and -, at most 12)",
    }),
  ),
  industry: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description: "an industry as the profiles name it (SIC description or People Data Labs industry), case-insensitive",
    }),
  ),
  sector: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: "a Fortune 1000 sector (Technology, Energy, Financials...), case-insensitive" }),
  ),
  state: Type.Optional(
    Type.String({
      pattern: "^[A-Za-z]{2}$",
      description: "headquarters' US state, two letters",
      errorMessage: "must be a two-letter US state code such as CA",
    }),
  ),
  min_employees: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_EMPLOYEES_FILTER,
      description: `at least this many employees, 0 to ${MAX_EMPLOYEES_FILTER.toLocaleString("en-US")}`,
    }),
  ),
  ...pageQueryFields,
});
export type SearchQuery = Static<typeof SearchQuery>;

export const CompanyParams = Type.Object({
  id: Type.String({
    maxLength: MAX_ID_LENGTH,
    pattern: "^(?:[0-9]{1,10}|(?=[a-z0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*)$",
    description: "a CIK (ten digits as EDGAR writes it, leading zeros optional) or the slug of a company without one",
    errorMessage: `must be a CIK (1 to 10 digits) or a company slug (lower-case letters, digits and single hyphens, with at least one letter, at most ${MAX_ID_LENGTH} characters)`,
  }),
});

export const CompanyQuery = Type.Object({
  filings_limit: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_FILINGS,
      default: DEFAULT_FILINGS,
      description: `recent filings to include, 0 to ${MAX_FILINGS} (default ${DEFAULT_FILINGS})`,
    }),
  ),
});

export const DomainParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 2048, description: "a website domain or URL: scheme, www. and path are ignored" }),
});

export const Address = Type.Object({
  street: NullableString,
  city: NullableString,
  state: NullableString,
  postal_code: NullableString,
  country: NullableString,
});

export const Profile = Type.Object({
  id: Type.String({ description: "the ten-digit CIK, or a slug for a company without one" }),
  name: Type.String(),
  legal_name: Nullable(Type.String({ description: "the registrant's name at the SEC" })),
  cik: Nullable(Type.String({ description: "ten digits" })),
  ticker: NullableString,
  tickers: Type.Array(Type.String()),
  exchange: NullableString,
  industry: NullableString,
  sic_code: NullableString,
  sector: NullableString,
  employees: Nullable(Type.Object({ count: Type.Integer(), year: NullableInteger, basis: Type.String() })),
  size_range: NullableString,
  revenue: Nullable(
    Type.Object({
      usd: Type.Integer(),
      year: Type.Integer({ description: "the fiscal year the figure measures (Fortune's 2020 list: fiscal 2019, years ended by 2020-01-31)" }),
    }),
  ),
  market_cap: Nullable(Type.Object({ usd: Type.Integer(), as_of: Type.String() })),
  founded_year: NullableInteger,
  headquarters: Nullable(Address),
  website: NullableString,
  domain: NullableString,
  domains: Type.Array(Type.String()),
  social_profiles: Type.Object({ linkedin: Nullable(Type.Object({ handle: Type.String(), url: Type.String() })) }),
  description: NullableString,
  fortune_1000: Nullable(Type.Object({ rank: Type.Integer(), year: Type.Integer({ description: "the year of the Fortune list (2020)" }) })),
  sec: Nullable(
    Type.Object({
      entity_type: NullableString,
      filer_category: NullableString,
      ein: NullableString,
      state_of_incorporation: NullableString,
      fiscal_year_end: NullableString,
      phone: NullableString,
      former_names: Type.Array(Type.Object({ name: Type.String(), from: NullableString, to: NullableString })),
    }),
  ),
  sources: Type.Record(Type.String(), Type.String(), { description: "for each field with a value, the source (GET /sources) that gave it" }),
  matched: Type.Array(
    Type.Object({
      source: Type.String(),
      record: Type.String(),
      by: Type.String({ description: "cik, ticker, name, domain, or own (the record started this profile)" }),
    }),
    { description: "the source records merged into this profile and how each was matched" },
  ),
});

export const Filing = Type.Object({
  form: Type.String(),
  filed_on: Type.String({ description: "YYYY-MM-DD" }),
  accession_number: Type.String(),
  description: NullableString,
  url: Type.String(),
  source: Type.String(),
});

export const CompanyDetails = Type.Object({
  ...Profile.properties,
  filings: Type.Object({
    total: Type.Integer({ description: "filings of this CIK in the catalogue" }),
    recent: Type.Array(Filing, { description: "newest first" }),
  }),
});

const CompanySummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  legal_name: NullableString,
  cik: NullableString,
  ticker: NullableString,
  exchange: NullableString,
  industry: NullableString,
  sector: NullableString,
  employees: NullableInteger,
  headquarters: Nullable(Address),
  domain: NullableString,
  fortune_rank: NullableInteger,
  match_score: Nullable(Type.Number({ description: "trigram similarity of the name to the query (name searches)" })),
});
type CompanySummary = Static<typeof CompanySummary>;

export const SearchPage = Type.Object({
  ...pageInfoFields,
  companies: Type.Array(CompanySummary),
});
