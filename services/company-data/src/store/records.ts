/** The per-source tables: writing a batch of rows, and reading every record back for the merge. */
import { upsertRows, type UpsertCounts } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import type { DbpediaRecord, FortuneRecord, PdlRecord, SecTickerRecord, SourceRecords, SubmissionRecord } from "../domain/source-records.js";
import type { FilingRecord } from "../domain/records.js";

/** What one source record becomes: rows of one or more of the per-source tables. */
export interface SourceRows {
  secTickers?: SecTickerRecord[];
  submission?: SubmissionRecord;
  fortune?: FortuneRecord;
  dbpedia?: DbpediaRecord;
  pdl?: PdlRecord;
  filings?: FilingRecord[];
}

const SPECS = {
  secTickers: { table: "sec_tickers", key: ["cik", "ticker"], columns: ["cik", "ticker", "name", "exchange", "position", "source"] },
  submission: {
    table: "sec_submissions",
    key: ["cik"],
    columns: [
      "cik",
      "name",
      "entity_type",
      "sic",
      "sic_description",
      "ein",
      "category",
      "fiscal_year_end",
      "state_of_incorporation",
      "phone",
      "tickers",
      "exchanges",
      "business_address",
      "former_names",
      "website",
      "source",
    ],
  },
  fortune: {
    table: "fortune_companies",
    key: ["rank", "company"],
    columns: ["rank", "company", "revenue_musd", "profit_musd", "employees", "sector", "city", "state", "ceo", "website", "ticker", "market_cap_musd"],
  },
  dbpedia: { table: "dbpedia_abstracts", key: ["title"], columns: ["title", "abstract"] },
  pdl: {
    table: "pdl_companies",
    key: ["pdl_id"],
    columns: [
      "pdl_id",
      "name",
      "domain",
      "founded_year",
      "industry",
      "size_range",
      "locality",
      "country",
      "linkedin_url",
      "current_employee_estimate",
      "total_employee_estimate",
    ],
  },
  filings: {
    table: "filings",
    key: ["cik", "accession_number"],
    columns: ["cik", "accession_number", "form", "filed_on", "filer_name", "description", "url", "source"],
  },
} as const;

const JSON_COLUMNS = new Set(["business_address", "former_names"]);

function asParams(row: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) out[key] = JSON_COLUMNS.has(key) && value !== null ? JSON.stringify(value) : value;
  return out;
}

/** Writes a batch of source rows, table by table; the counts are the batch's records (a record = its main rows). */
export async function upsertSourceRows(db: Queryable, batch: SourceRows[]): Promise<UpsertCounts> {
  const total: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
  const add = (counts: UpsertCounts) => {
    total.inserted += counts.inserted;
    total.updated += counts.updated;
    total.unchanged += counts.unchanged;
  };
  const collect = <K extends keyof SourceRows>(key: K) =>
    batch.flatMap((rows) => {
      const value = rows[key];
      return value === undefined ? [] : Array.isArray(value) ? value : [value];
    }) as object[];
  for (const key of Object.keys(SPECS) as (keyof typeof SPECS)[]) {
    const rows = collect(key).map(asParams);
    // A batch may hold thousands of filings of one company: a statement's parameters are bounded (65,535).
    for (let i = 0; i < rows.length; i += 2000) {
      const spec = SPECS[key];
      add(await upsertRows(db, { table: spec.table, key: [...spec.key], columns: [...spec.columns] }, rows.slice(i, i + 2000)));
    }
  }
  return total;
}

/** Every record of every source, for the merge. */
export async function readSourceRecords(db: Queryable): Promise<SourceRecords> {
  const [secTickers, submissions, fortune, dbpedia, pdl] = await Promise.all([
    db.query<SecTickerRecord>("SELECT cik, ticker, name, exchange, position, source FROM sec_tickers"),
    db.query<SubmissionRecord>(`SELECT ${SPECS.submission.columns.join(", ")} FROM sec_submissions`),
    db.query<FortuneRecord>(`SELECT rank, company, revenue_musd::text AS revenue_musd, profit_musd::text AS profit_musd, employees, sector, city, state, ceo,
       website, ticker, market_cap_musd::text AS market_cap_musd FROM fortune_companies`),
    db.query<DbpediaRecord>("SELECT title, abstract FROM dbpedia_abstracts"),
    db.query<PdlRecord>(`SELECT ${SPECS.pdl.columns.join(", ")} FROM pdl_companies`),
  ]);
  return { secTickers: secTickers.rows, submissions: submissions.rows, fortune: fortune.rows, dbpedia: dbpedia.rows, pdl: pdl.rows };
}
