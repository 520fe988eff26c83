-- The catalogue's standard tables, created in each catalogue service's schema before its own (see the README).
-- pg_trgm in pg_catalog, on every search path and owned by no service's schema (see the catalogue README); a role
-- that may not create objects there (not a superuser) gets it in its own schema instead.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    BEGIN
      CREATE EXTENSION pg_trgm SCHEMA pg_catalog;
    EXCEPTION WHEN insufficient_privilege THEN
      CREATE EXTENSION pg_trgm;
    END;
  END IF;
END $$;

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
CREATE INDEX search_vocabulary_trgm ON search_vocabulary USING gin (term gin_trgm_ops) WITH (fastupdate = off);
