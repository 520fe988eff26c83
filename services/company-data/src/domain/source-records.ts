/** The records each source gives about a company, as store/records.ts reads them back for a merge. */
export type SourceName = "sec-tickers" | "sec-edgar" | "edgar-submissions" | "edgar-daily-index" | "fortune-1000" | "dbpedia-abstracts" | "pdl-sample";

export interface SecTickerRecord {
  cik: number;
  ticker: string;
  name: string;
  exchange: string | null;
  position: number;
  source: SourceName;
}

export interface Address {
  street: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
}

export interface SubmissionRecord {
  cik: number;
  name: string;
  entity_type: string | null;
  sic: string | null;
  sic_description: string | null;
  ein: string | null;
  category: string | null;
  fiscal_year_end: string | null;
  state_of_incorporation: string | null;
  phone: string | null;
  tickers: string[];
  exchanges: string[];
  business_address: Address | null;
  former_names: { name: string; from: string | null; to: string | null }[];
  website: string | null;
  source: SourceName;
}

export interface FortuneRecord {
  rank: number;
  company: string;
  revenue_musd: string | null;
  profit_musd: string | null;
  employees: number | null;
  sector: string | null;
  city: string | null;
  state: string | null;
  ceo: string | null;
  website: string | null;
  ticker: string | null;
  market_cap_musd: string | null;
}

export interface DbpediaRecord {
  title: string;
  abstract: string;
}

export interface PdlRecord {
  pdl_id: number;
  name: string;
  domain: string | null;
  founded_year: number | null;
  industry: string | null;
  size_range: string | null;
  locality: string | null;
  country: string | null;
  linkedin_url: string | null;
  current_employee_estimate: number | null;
  total_employee_estimate: number | null;
}

export interface SourceRecords {
  secTickers: SecTickerRecord[];
  submissions: SubmissionRecord[];
  fortune: FortuneRecord[];
  dbpedia: DbpediaRecord[];
  pdl: PdlRecord[];
}
