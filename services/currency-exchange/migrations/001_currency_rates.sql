-- One row per table a bank published for a date (ECB reference rates of 2026-03-18, NBP table B of 2026-03-25, ...).
CREATE TABLE currency_tables (
  source        text        NOT NULL,
  rate_date     date        NOT NULL,
  home_currency text        NOT NULL,
  quote_style   text        NOT NULL CHECK (quote_style IN ('foreign_per_home', 'home_per_foreign')),
  rate_count    integer     NOT NULL,
  origin        text        NOT NULL,
  stored_at     timestamptz NOT NULL,
  PRIMARY KEY (source, rate_date)
);

-- Each rate exactly as published: `value` for `units` of the currency (see quote_style of its table).
CREATE TABLE currency_rates (
  source    text    NOT NULL,
  rate_date date    NOT NULL,
  currency  text    NOT NULL,
  value     numeric NOT NULL CHECK (value > 0),
  units     integer NOT NULL CHECK (units > 0),
  PRIMARY KEY (source, rate_date, currency),
  FOREIGN KEY (source, rate_date) REFERENCES currency_tables (source, rate_date) ON DELETE CASCADE
);

-- Every scheduled or manual fetch of a feed, successful or not (GET /sources shows the last one).
CREATE TABLE currency_fetch_runs (
  id          bigserial   PRIMARY KEY,
  source      text        NOT NULL,
  started_at  timestamptz NOT NULL,
  finished_at timestamptz NOT NULL,
  ok          boolean     NOT NULL,
  attempts    integer     NOT NULL,
  tables      integer     NOT NULL,
  latest_date date,
  error       text
);
CREATE INDEX currency_fetch_runs_source ON currency_fetch_runs (source, id DESC);

-- Bumped by every write of rates: cache keys and ETags include it, so new rates are served at once. The
-- database clock's time of the bump keeps versions of a rebuilt database from repeating older ones.
CREATE TABLE currency_data_version (
  id         boolean     PRIMARY KEY DEFAULT true CHECK (id),
  version    bigint      NOT NULL,
  changed_at timestamptz NOT NULL
);
INSERT INTO currency_data_version (id, version, changed_at) VALUES (true, 0, clock_timestamp());
