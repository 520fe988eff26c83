-- The catalogue's standard tables (see packages/catalogue/README.md).
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA pg_catalog;

CREATE TABLE ingest_runs (
  id bigserial PRIMARY KEY,
  source text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  status text NOT NULL,
  rows_read bigint NOT NULL DEFAULT 0,
  rows_inserted bigint NOT NULL DEFAULT 0,
  rows_updated bigint NOT NULL DEFAULT 0,
  rows_unchanged bigint NOT NULL DEFAULT 0,
  rows_skipped bigint NOT NULL DEFAULT 0,
  rows_per_second integer,
  skipped_examples jsonb NOT NULL DEFAULT '[]',
  error text
);
CREATE INDEX ingest_runs_source ON ingest_runs (source, started_at DESC);

CREATE TABLE search_vocabulary (
  term text PRIMARY KEY,
  documents integer NOT NULL
);
CREATE INDEX search_vocabulary_trgm ON search_vocabulary USING gin (term gin_trgm_ops);

-- One row per sale (King County, Sacramento) or listing (New York). A field the dataset lacks is null.
CREATE TABLE properties (
  id text PRIMARY KEY,
  dataset text NOT NULL,
  market text NOT NULL,
  address text,
  address_key text,
  city text,
  county text,
  state text NOT NULL,
  zip text,
  price bigint NOT NULL,
  price_kind text NOT NULL,
  bedrooms integer,
  bathrooms real,
  living_sqft integer,
  lot_sqft integer,
  year_built integer,
  year_renovated integer,
  property_type text,
  status text NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  sold_date date,
  listed_date date,
  details jsonb NOT NULL DEFAULT '{}',
  revision bigint NOT NULL
);
-- Geographic filters: a B-tree over (latitude, longitude) serves the bounding box of a radius or a box, on
-- PostgreSQL and on PGlite alike (no PostGIS, cube or earthdistance needed); the exact great-circle distance is
-- then computed for the rows inside the box.
CREATE INDEX properties_location ON properties (latitude, longitude);
CREATE INDEX properties_zip ON properties (zip);
CREATE INDEX properties_city ON properties (lower(city), state);
CREATE INDEX properties_price ON properties (price, id);
CREATE INDEX properties_state_price ON properties (state, price);
CREATE INDEX properties_market_type ON properties (market, property_type, status);
CREATE INDEX properties_status ON properties (status);
CREATE INDEX properties_newest ON properties ((coalesce(sold_date, listed_date)) DESC NULLS LAST, id);
CREATE INDEX properties_address ON properties USING gin (address_key gin_trgm_ops);

-- The valuation model of each market, fitted after each ingestion (see src/domain/valuation.ts).
CREATE TABLE valuation_models (
  market text PRIMARY KEY,
  model jsonb NOT NULL,
  fitted_at timestamptz NOT NULL
);
