-- The catalogue's standard tables come from @apiplat/catalogue (catalogueTables); these are company-data's own.
-- One table per source as read (each keyed by the source's natural key), and the merged profiles rebuilt from them
-- after every ingestion (see src/domain/merge.ts): re-reading a file only touches its own table, and the merge
-- rules live in one pure function instead of in the order files happened to be loaded.

-- SEC company_tickers_exchange.json: one row per ticker; a company (CIK) may list several.
CREATE TABLE sec_tickers (
  cik bigint NOT NULL,
  ticker text NOT NULL,
  name text NOT NULL,
  exchange text,
  position integer NOT NULL,
  source text NOT NULL,
  PRIMARY KEY (cik, ticker)
);

-- EDGAR submissions JSON (data.sec.gov/submissions/CIK##########.json): the company facts, one row per CIK.
CREATE TABLE sec_submissions (
  cik bigint PRIMARY KEY,
  name text NOT NULL,
  entity_type text,
  sic text,
  sic_description text,
  ein text,
  category text,
  fiscal_year_end text,
  state_of_incorporation text,
  phone text,
  tickers text[] NOT NULL DEFAULT '{}',
  exchanges text[] NOT NULL DEFAULT '{}',
  business_address jsonb,
  former_names jsonb NOT NULL DEFAULT '[]',
  website text,
  source text NOT NULL
);

-- Fortune 1000 (2021 list). Ranks tie (PVH and Campbell Soup are both 322nd): the key is rank and company.
CREATE TABLE fortune_companies (
  rank integer NOT NULL,
  company text NOT NULL,
  revenue_musd numeric,
  profit_musd numeric,
  employees integer,
  sector text,
  city text,
  state text,
  ceo text,
  website text,
  ticker text,
  market_cap_musd numeric,
  PRIMARY KEY (rank, company)
);

-- DBpedia company abstracts.
CREATE TABLE dbpedia_abstracts (
  title text PRIMARY KEY,
  abstract text NOT NULL
);

-- People Data Labs company sample.
CREATE TABLE pdl_companies (
  pdl_id bigint PRIMARY KEY,
  name text NOT NULL,
  domain text,
  founded_year integer,
  industry text,
  size_range text,
  locality text,
  country text,
  linkedin_url text,
  current_employee_estimate integer,
  total_employee_estimate integer
);

-- EDGAR filings, from the daily index and from submissions JSON, one row per filer and accession number.
CREATE TABLE filings (
  cik bigint NOT NULL,
  accession_number text NOT NULL,
  form text NOT NULL,
  filed_on date NOT NULL,
  filer_name text,
  description text,
  url text NOT NULL,
  source text NOT NULL,
  PRIMARY KEY (cik, accession_number)
);
CREATE INDEX filings_recent ON filings (cik, filed_on DESC, accession_number DESC);

-- The merged profiles: the whole profile as JSON, plus the columns search filters and sorts on.
CREATE TABLE companies (
  id text PRIMARY KEY,
  cik bigint UNIQUE,
  name text NOT NULL,
  name_key text NOT NULL,
  legal_key text,
  ticker_keys text[] NOT NULL DEFAULT '{}',
  industry text,
  sector text,
  state text,
  employees integer,
  fortune_rank integer,
  domains text[] NOT NULL DEFAULT '{}',
  profile jsonb NOT NULL,
  -- A digest of the row as merged: a rebuild rewrites only the profiles whose digest changed.
  digest text NOT NULL
);
-- GIN indexes with their pending list on (unlike the catalogue's default): a rebuild writes thousands of profiles at
-- once, which costs 10 s with every row merged into the trigram indexes as it comes and under 1 s through the pending
-- list; the VACUUM that ends every ingestion (settleTables) then merges the list, so searches never scan it for long.
CREATE INDEX companies_name_trgm ON companies USING gin (name_key gin_trgm_ops);
CREATE INDEX companies_legal_trgm ON companies USING gin (legal_key gin_trgm_ops);
CREATE INDEX companies_tickers ON companies USING gin (ticker_keys);
CREATE INDEX companies_domains ON companies USING gin (domains);
CREATE INDEX companies_listing ON companies (fortune_rank NULLS LAST, name_key, id);
CREATE INDEX companies_sector ON companies (lower(sector));
CREATE INDEX companies_industry ON companies (lower(industry));
CREATE INDEX companies_employees ON companies (employees);
