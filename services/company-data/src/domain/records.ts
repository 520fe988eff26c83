/**
 * The records of each source file (and of the SEC's API, which serves the same formats) turned into typed rows.
 * A record that cannot be used throws InvalidRecord with the reason, which ingestion reports and skips.
 */
import { MAX_CIK } from "./ids.js";
import type { Address, DbpediaRecord, FortuneRecord, PdlRecord, SecTickerRecord, SourceName, SubmissionRecord } from "./source-records.js";

export class InvalidRecord extends Error {}

export interface FilingRecord {
  cik: number;
  accession_number: string;
  form: string;
  filed_on: string;
  filer_name: string | null;
  description: string | null;
  url: string;
  source: SourceName;
}

const EDGAR_ARCHIVES = "https://www.sec.gov/Archives/";
const ACCESSION = /^\d{10}-\d{2}-\d{6}$/;

function text(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

function required(value: unknown, field: string): string {
  const result = text(value);
  if (result === null) throw new InvalidRecord(`${field} is missing`);
  return result;
}

function parseCik(value: unknown): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,10}$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CIK) throw new InvalidRecord(`cik ${JSON.stringify(value)} is not a CIK (1 to 10 digits)`);
  return n;
}

/** A whole number, or null when the field is empty or a dash; anything else is not a number. */
function optionalInteger(value: string | undefined, field: string): number | null {
  const t = text(value);
  if (t === null || t === "-") return null;
  if (!/^-?\d+$/.test(t)) throw new InvalidRecord(`${field} "${t}" is not a whole number`);
  return Number(t);
}

/** A decimal kept as written (numeric in the database), or null when empty or a dash. */
function optionalDecimal(value: string | undefined, field: string): string | null {
  const t = text(value);
  if (t === null || t === "-") return null;
  if (!/^-?\d+(?:\.\d+)?$/.test(t)) throw new InvalidRecord(`${field} "${t}" is not a number`);
  return t;
}

/** One `data` row of company_tickers_exchange.json: [cik, name, ticker, exchange]. */
export function secTickerRecord(row: unknown, position: number, source: SourceName): SecTickerRecord {
  if (!Array.isArray(row) || row.length < 3) throw new InvalidRecord("the row is not [cik, name, ticker, exchange]");
  const [cik, name, ticker, exchange] = row as unknown[];
  return { cik: parseCik(cik), name: required(name, "name"), ticker: required(ticker, "ticker").toUpperCase(), exchange: text(exchange), position, source };
}

/** One row of the Fortune 1000 CSV. */
export function fortuneRecord(row: Record<string, string>): FortuneRecord {
  const rank = optionalInteger(row.rank, "rank");
  if (rank === null || rank < 1) throw new InvalidRecord(`rank "${row.rank ?? ""}" is not a rank`);
  return {
    rank,
    company: required(row.company, "company"),
    revenue_musd: optionalDecimal(row.revenue, "revenue"),
    profit_musd: optionalDecimal(row.profit, "profit"),
    employees: optionalInteger(row["num. of employees"], "num. of employees"),
    sector: text(row.sector),
    city: text(row.city),
    state: text(row.state),
    ceo: text(row.CEO),
    website: text(row.Website),
    ticker: text(row.Ticker),
    market_cap_musd: optionalDecimal(row["Market Cap"], "Market Cap"),
  };
}

export function dbpediaRecord(row: Record<string, string>): DbpediaRecord {
  if (text(row.class_index) !== "1") throw new InvalidRecord(`class_index "${row.class_index ?? ""}" is not 1 (Company)`);
  return { title: required(row.title, "title"), abstract: required(row.abstract, "abstract") };
}

export function pdlRecord(row: Record<string, string>): PdlRecord {
  const id = optionalInteger(row.id, "id");
  if (id === null || id < 1) throw new InvalidRecord(`id "${row.id ?? ""}" is not an id`);
  return {
    pdl_id: id,
    name: required(row.name, "name"),
    domain: text(row.domain),
    founded_year: optionalInteger(row["year founded"], "year founded"),
    industry: text(row.industry),
    size_range: text(row["size range"]),
    locality: text(row.locality),
    country: text(row.country),
    linkedin_url: text(row["linkedin url"]),
    current_employee_estimate: optionalInteger(row["current employee estimate"], "current employee estimate"),
    total_employee_estimate: optionalInteger(row["total employee estimate"], "total employee estimate"),
  };
}

/** YYYYMMDD (the daily index) or YYYY-MM-DD (submissions) as YYYY-MM-DD, checked as a calendar day. */
function parseFilingDate(value: string): string {
  const m = value.trim().match(/^(\d{4})-?(\d{2})-?(\d{2})$/);
  const day = m ? `${m[1]}-${m[2]}-${m[3]}` : "";
  if (!m || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || new Date(`${day}T00:00:00Z`).toISOString().slice(0, 10) !== day) {
    throw new InvalidRecord(`date "${value}" is not a day`);
  }
  return day;
}

/** One row of the EDGAR daily master index (as CSV): the filing's link is the Archives path it names. */
export function indexFilingRecord(row: Record<string, string>): FilingRecord {
  const cik = parseCik(row.cik);
  const fileName = required(row.file_name, "file_name");
  const accession = fileName
    .split("/")
    .at(-1)!
    .replace(/\.txt$/, "");
  if (!fileName.startsWith("edgar/data/") || !ACCESSION.test(accession)) throw new InvalidRecord(`file_name "${fileName}" is not an EDGAR archive path`);
  return {
    cik,
    accession_number: accession,
    form: required(row.form_type, "form_type"),
    filed_on: parseFilingDate(required(row.date_filed, "date_filed")),
    filer_name: text(row.company_name),
    description: null,
    url: `${EDGAR_ARCHIVES}${fileName}`,
    source: "edgar-daily-index",
  };
}

/** The submissions JSON of data.sec.gov, as far as the profile and the filings use it. */
export interface SubmissionsDocument {
  cik?: string | number;
  name?: string;
  entityType?: string;
  sic?: string;
  sicDescription?: string;
  ein?: string;
  category?: string;
  fiscalYearEnd?: string;
  stateOfIncorporation?: string;
  phone?: string;
  tickers?: string[];
  exchanges?: (string | null)[];
  website?: string;
  addresses?: {
    business?: { street1?: string | null; street2?: string | null; city?: string | null; stateOrCountry?: string | null; zipCode?: string | null };
  };
  formerNames?: { name?: string; from?: string; to?: string }[];
  filings?: { recent?: { accessionNumber?: string[]; filingDate?: string[]; form?: string[]; primaryDocument?: string[]; primaryDocDescription?: string[] } };
}

function businessAddress(document: SubmissionsDocument): Address | null {
  const a = document.addresses?.business;
  if (!a || !(text(a.city) || text(a.street1))) return null;
  const street = [text(a.street1), text(a.street2)].filter(Boolean).join(", ") || null;
  const region = text(a.stateOrCountry);
  // EDGAR's stateOrCountry holds a US state's two letters, else its own code for the country.
  return {
    street,
    city: text(a.city),
    state: region && /^[A-Z]{2}$/.test(region) ? region : null,
    postal_code: text(a.zipCode),
    country: region && /^[A-Z]{2}$/.test(region) ? "US" : region,
  };
}

export function submissionRecord(document: SubmissionsDocument, source: SourceName): { submission: SubmissionRecord; filings: FilingRecord[] } {
  const cik = parseCik(document.cik);
  const submission: SubmissionRecord = {
    cik,
    name: required(document.name, "name"),
    entity_type: text(document.entityType),
    sic: text(document.sic),
    sic_description: text(document.sicDescription),
    ein: text(document.ein),
    category: text(document.category),
    fiscal_year_end: text(document.fiscalYearEnd),
    state_of_incorporation: text(document.stateOfIncorporation),
    phone: text(document.phone),
    tickers: (document.tickers ?? []).filter((t) => text(t) !== null).map((t) => t.toUpperCase()),
    exchanges: (document.exchanges ?? []).map((e) => text(e)).filter((e): e is string => e !== null),
    business_address: businessAddress(document),
    former_names: (document.formerNames ?? [])
      .filter((f) => text(f.name))
      .map((f) => ({ name: f.name!.trim(), from: text(f.from)?.slice(0, 10) ?? null, to: text(f.to)?.slice(0, 10) ?? null })),
    website: text(document.website),
    source,
  };
  const recent = document.filings?.recent ?? {};
  const filings: FilingRecord[] = [];
  for (const [i, accession] of (recent.accessionNumber ?? []).entries()) {
    const form = text(recent.form?.[i]);
    const filed = text(recent.filingDate?.[i]);
    if (!ACCESSION.test(accession) || !form || !filed) continue;
    const primary = text(recent.primaryDocument?.[i]);
    const folder = `${EDGAR_ARCHIVES}edgar/data/${cik}/${accession.replace(/-/g, "")}`;
    filings.push({
      cik,
      accession_number: accession,
      form,
      filed_on: parseFilingDate(filed),
      filer_name: submission.name,
      description: text(recent.primaryDocDescription?.[i]),
      url: primary ? `${folder}/${primary}` : `${folder}/${accession}.txt`,
      source,
    });
  }
  return { submission, filings };
}
