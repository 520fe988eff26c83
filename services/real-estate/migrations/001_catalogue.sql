-- The catalogue's standard tables come from @apiplat/catalogue (catalogueTables); these are the property tables.
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
