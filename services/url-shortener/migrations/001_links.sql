-- Short links. domain is '' for the service's own short-link host, else a custom domain host name.
CREATE TABLE IF NOT EXISTS shortener_links (
  id              bigserial PRIMARY KEY,
  account_id      text        NOT NULL,
  domain          text        NOT NULL DEFAULT '',
  code            text        NOT NULL,
  url             text        NOT NULL,
  fallback_url    text,
  redirect_status smallint    NOT NULL DEFAULT 302 CHECK (redirect_status IN (301, 302)),
  expires_at      timestamptz,
  max_clicks      bigint      CHECK (max_clicks IS NULL OR max_clicks > 0),
  clicks          bigint      NOT NULL DEFAULT 0,
  last_clicked_at timestamptz,
  created_at      timestamptz NOT NULL,
  deleted_at      timestamptz
);
-- Redirects match the exact code; no two codes of a domain may differ only by case.
CREATE UNIQUE INDEX IF NOT EXISTS shortener_links_domain_code ON shortener_links (domain, code);
CREATE UNIQUE INDEX IF NOT EXISTS shortener_links_domain_code_ci ON shortener_links (domain, lower(code));
CREATE INDEX IF NOT EXISTS shortener_links_account ON shortener_links (account_id, id DESC);

-- One row per redirect. No IP address is stored: visitor_hash is a salted daily fingerprint.
CREATE TABLE IF NOT EXISTS shortener_clicks (
  id              bigserial PRIMARY KEY,
  link_id         bigint      NOT NULL REFERENCES shortener_links (id) ON DELETE CASCADE,
  clicked_at      timestamptz NOT NULL,
  referrer_domain text,
  country         text,
  device_type     text        NOT NULL,
  browser         text,
  os              text,
  is_bot          boolean     NOT NULL,
  visitor_hash    text        NOT NULL
);
CREATE INDEX IF NOT EXISTS shortener_clicks_link_time ON shortener_clicks (link_id, clicked_at);

CREATE TABLE IF NOT EXISTS shortener_settings (
  account_id   text PRIMARY KEY,
  fallback_url text,
  updated_at   timestamptz NOT NULL
);

CREATE TABLE IF NOT EXISTS shortener_domains (
  domain       text PRIMARY KEY,
  account_id   text        NOT NULL,
  verified_at  timestamptz,
  last_checked_at timestamptz,
  last_check_error text,
  created_at   timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS shortener_domains_account ON shortener_domains (account_id);

-- The daily salt of visitor fingerprints; rows older than yesterday are deleted.
CREATE TABLE IF NOT EXISTS shortener_visitor_salts (
  day  date  PRIMARY KEY,
  salt bytea NOT NULL
);
