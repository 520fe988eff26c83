/**
 * A company's profile from the records joined into it (merge.ts). Conflicts: each field is taken from the first
 * source, in a fixed order per field, that has a value (the README's table), and `sources` says which one gave it.
 */
import { isoCountry } from "./countries.js";
import { domainOfWebsite } from "./domains.js";
import { cikId } from "./ids.js";
import type { Address, DbpediaRecord, FortuneRecord, PdlRecord, SecTickerRecord, SourceName, SubmissionRecord } from "./source-records.js";

/**
 * The Fortune list the file holds, and the fiscal year its figures measure. The file is named and described as the
 * 2021 list (Kaggle "Fortune 500 data 2021", SOURCE.md), but its revenues, profits and employee counts are those of
 * Fortune's 2020 list, whose figures are for fiscal years ended on or before 2020-01-31, fiscal 2019 in Fortune's
 * naming: Microsoft 125,843 (fiscal year ended June 2019), Apple 260,174 (September 2019), Walmart 523,964 (January
 * 2020). The 2021 list has Microsoft at 143,015 and Walmart at 559,151. Corrected here; only the market caps are of
 * 2021 (taken on 2021-01-20).
 */
const FORTUNE_LIST_YEAR = 2020;
const FORTUNE_FISCAL_YEAR = 2019;
const FORTUNE_MARKET_CAP_DATE = "2021-01-20";

export interface Profile {
  id: string;
  name: string;
  legal_name: string | null;
  cik: string | null;
  ticker: string | null;
  tickers: string[];
  exchange: string | null;
  industry: string | null;
  sic_code: string | null;
  sector: string | null;
  employees: { count: number; year: number | null; basis: string } | null;
  size_range: string | null;
  revenue: { usd: number; year: number } | null;
  market_cap: { usd: number; as_of: string } | null;
  founded_year: number | null;
  headquarters: Address | null;
  website: string | null;
  domain: string | null;
  domains: string[];
  social_profiles: { linkedin: { handle: string; url: string } | null };
  description: string | null;
  fortune_1000: { rank: number; year: number } | null;
  sec: {
    entity_type: string | null;
    filer_category: string | null;
    ein: string | null;
    state_of_incorporation: string | null;
    fiscal_year_end: string | null;
    phone: string | null;
    former_names: { name: string; from: string | null; to: string | null }[];
  } | null;
  /** For every field with a value, the source that gave it. */
  sources: Record<string, SourceName>;
  /** The records joined into this profile and how each was matched. */
  matched: { source: SourceName; record: string; by: "cik" | "ticker" | "name" | "domain" | "own" }[];
}

/** The records joined into one company, and how each was matched. */
export interface JoinedRecords {
  id: string | null;
  cik: number | null;
  sec: SecTickerRecord[];
  submission: SubmissionRecord | null;
  fortune: FortuneRecord | null;
  pdl: PdlRecord | null;
  dbpedia: DbpediaRecord | null;
  matched: Profile["matched"];
}

function parseMillions(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value);
  return Number.isFinite(n) ? Math.round(n * 1_000_000) : null;
}

/** "linkedin.com/company/ibm" -> handle "company/ibm" and its URL. */
function linkedinProfile(url: string | null): { handle: string; url: string } | null {
  const match = url?.match(/^(?:https?:\/\/)?(?:[a-z]{2,3}\.)?linkedin\.com\/(.+?)\/?$/i);
  return match ? { handle: match[1], url: `https://www.linkedin.com/${match[1]}` } : null;
}

/** "new york, new york, united states" -> city, region, country as PDL gives them (lower case). */
function pdlAddress(record: PdlRecord): Address | null {
  if (!record.locality) return null;
  const parts = record.locality.split(",").map((p) => p.trim());
  return {
    street: null,
    city: parts[0] || null,
    state: parts.length > 2 ? parts[1] : null,
    postal_code: null,
    country: isoCountry(record.country ?? parts.at(-1) ?? null),
  };
}

export function displayName(draft: JoinedRecords): { value: string; source: SourceName } {
  if (draft.fortune) return { value: draft.fortune.company, source: "fortune-1000" };
  if (draft.dbpedia) return { value: draft.dbpedia.title, source: "dbpedia-abstracts" };
  if (draft.submission) return { value: draft.submission.name, source: draft.submission.source };
  if (draft.sec[0]) return { value: draft.sec[0].name, source: draft.sec[0].source };
  return { value: draft.pdl!.name, source: "pdl-sample" };
}

/** The fields of one profile and, for each field given a value, the source that gave it. */
class SourcedFields {
  readonly sources: Record<string, SourceName> = {};
  /** `value` when there is one, noting `source` as the field's; null otherwise. */
  from<T>(field: string, value: T | null | undefined, source: SourceName): T | null {
    if (value === null || value === undefined) return null;
    this.sources[field] = source;
    return value;
  }
  mark(field: string, source: SourceName): void {
    this.sources[field] = source;
  }
}

/** Tickers and exchange (their sources noted in the order the answer has always listed them): SEC's ticker list, else the submission's, else Fortune's one ticker. */
function tickersOf({ sec, submission, fortune }: JoinedRecords, fields: SourcedFields): Pick<Profile, "tickers" | "ticker" | "exchange"> {
  if (sec.length > 0) {
    const ticker = fields.from("ticker", sec[0].ticker, sec[0].source);
    fields.mark("tickers", sec[0].source);
    return { tickers: [...new Set(sec.map((s) => s.ticker))], ticker, exchange: fields.from("exchange", sec[0].exchange, sec[0].source) };
  }
  if (submission && submission.tickers.length > 0) {
    const ticker = fields.from("ticker", submission.tickers[0], submission.source);
    fields.mark("tickers", submission.source);
    return { tickers: submission.tickers, ticker, exchange: fields.from("exchange", submission.exchanges[0] ?? null, submission.source) };
  }
  if (fortune?.ticker) {
    const ticker = fields.from("ticker", fortune.ticker, "fortune-1000");
    fields.mark("tickers", "fortune-1000");
    return { tickers: [fortune.ticker], ticker, exchange: null };
  }
  return { tickers: [], ticker: null, exchange: null };
}

/** Employees, revenue and market cap: Fortune's figures, else People Data Labs' employee estimate. */
function figuresOf({ fortune, pdl }: JoinedRecords, fields: SourcedFields): Pick<Profile, "employees" | "revenue" | "market_cap"> {
  const employees =
    fortune?.employees !== null && fortune?.employees !== undefined
      ? fields.from("employees", { count: fortune.employees, year: FORTUNE_FISCAL_YEAR, basis: "reported in the Fortune 1000 list" }, "fortune-1000")
      : pdl?.current_employee_estimate !== null && pdl?.current_employee_estimate !== undefined
        ? fields.from("employees", { count: pdl.current_employee_estimate, year: null, basis: "People Data Labs current employee estimate" }, "pdl-sample")
        : null;
  const revenueUsd = parseMillions(fortune?.revenue_musd ?? null);
  const marketCapUsd = parseMillions(fortune?.market_cap_musd ?? null);
  return {
    employees,
    revenue: revenueUsd === null ? null : fields.from("revenue", { usd: revenueUsd, year: FORTUNE_FISCAL_YEAR }, "fortune-1000"),
    market_cap: marketCapUsd === null ? null : fields.from("market_cap", { usd: marketCapUsd, as_of: FORTUNE_MARKET_CAP_DATE }, "fortune-1000"),
  };
}

/** Headquarters: the submission's business address, else Fortune's city and state, else People Data Labs' locality. */
function headquartersOf({ submission, fortune, pdl }: JoinedRecords, fields: SourcedFields): Address | null {
  return (
    (submission?.business_address ? fields.from("headquarters", submission.business_address, submission.source) : null) ??
    (fortune && (fortune.city || fortune.state)
      ? fields.from("headquarters", { street: null, city: fortune.city, state: fortune.state, postal_code: null, country: "US" }, "fortune-1000")
      : null) ??
    (pdl ? fields.from("headquarters", pdlAddress(pdl), "pdl-sample") : null)
  );
}

/** Website, domains and social profiles: Fortune's website, else People Data Labs' domain. */
function webOf({ fortune, pdl }: JoinedRecords, fields: SourcedFields): Pick<Profile, "website" | "domain" | "domains" | "social_profiles"> {
  const fortuneDomain = domainOfWebsite(fortune?.website);
  const pdlDomain = domainOfWebsite(pdl?.domain);
  const website = fortune?.website
    ? fields.from("website", fortune.website, "fortune-1000")
    : pdlDomain
      ? fields.from("website", `https://${pdlDomain}`, "pdl-sample")
      : null;
  const domain = fortuneDomain ? fields.from("domain", fortuneDomain, "fortune-1000") : fields.from("domain", pdlDomain, "pdl-sample");
  const domains = [...new Set([fortuneDomain, pdlDomain].filter((d): d is string => d !== null))];
  if (domains.length > 0) fields.mark("domains", fortuneDomain ? "fortune-1000" : "pdl-sample");
  const linkedin = pdl ? linkedinProfile(pdl.linkedin_url) : null;
  if (linkedin) fields.mark("social_profiles", "pdl-sample");
  return { website, domain, domains, social_profiles: { linkedin } };
}

function secFactsOf(submission: SubmissionRecord | null, fields: SourcedFields): Profile["sec"] {
  if (!submission) return null;
  const facts = {
    entity_type: submission.entity_type,
    filer_category: submission.category,
    ein: submission.ein,
    state_of_incorporation: submission.state_of_incorporation,
    fiscal_year_end: submission.fiscal_year_end,
    phone: submission.phone,
    former_names: submission.former_names,
  };
  return fields.from("sec", facts, submission.source);
}

export function toProfile(joined: JoinedRecords): Profile {
  const fields = new SourcedFields();
  const { fortune, submission, pdl, dbpedia, sec } = joined;
  const name = displayName(joined);
  fields.mark("name", name.source);
  const legalName = submission
    ? fields.from("legal_name", submission.name, submission.source)
    : sec[0]
      ? fields.from("legal_name", sec[0].name, sec[0].source)
      : null;
  const cik = joined.cik === null ? null : fields.from("cik", cikId(joined.cik), sec[0]?.source ?? submission!.source);
  const { tickers, ticker, exchange } = tickersOf(joined, fields);
  const industry =
    fields.from("industry", submission?.sic_description ?? null, submission?.source ?? "edgar-submissions") ??
    fields.from("industry", pdl?.industry ?? null, "pdl-sample");
  const sicCode = fields.from("sic_code", submission?.sic ?? null, submission?.source ?? "edgar-submissions");
  const sector = fields.from("sector", fortune?.sector ?? null, "fortune-1000");
  const { employees, revenue, market_cap } = figuresOf(joined, fields);
  const headquarters = headquartersOf(joined, fields);
  const { website, domain, domains, social_profiles } = webOf(joined, fields);
  return {
    id: joined.id!,
    name: name.value,
    legal_name: legalName,
    cik,
    ticker,
    tickers,
    exchange,
    industry,
    sic_code: sicCode,
    sector,
    employees,
    size_range: fields.from("size_range", pdl?.size_range ?? null, "pdl-sample"),
    revenue,
    market_cap,
    founded_year: fields.from("founded_year", pdl?.founded_year ?? null, "pdl-sample"),
    headquarters,
    website,
    domain,
    domains,
    social_profiles,
    description: fields.from("description", dbpedia?.abstract ?? null, "dbpedia-abstracts"),
    fortune_1000: fortune ? fields.from("fortune_1000", { rank: fortune.rank, year: FORTUNE_LIST_YEAR }, "fortune-1000") : null,
    sec: secFactsOf(submission, fields),
    sources: fields.sources,
    matched: joined.matched,
  };
}
