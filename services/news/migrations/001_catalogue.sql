-- The catalogue's standard tables come from @apiplat/catalogue (catalogueTables); these are the news tables.
-- Publishers. article_count and the date range are refreshed after each ingestion.
CREATE TABLE news_sources (
  id text PRIMARY KEY,
  name text NOT NULL,
  url text,
  category text,
  language text,
  country text,
  article_count integer NOT NULL DEFAULT 0,
  oldest_published_at timestamptz,
  newest_published_at timestamptz
);

-- One row per article; id is derived from the canonical URL (or, for headlines without a URL, from the dataset,
-- the day and the headline), which makes it the natural key of every upsert and the deduplication of feeds.
CREATE TABLE articles (
  id text PRIMARY KEY,
  dataset text NOT NULL,
  source_id text NOT NULL,
  source_name text NOT NULL,
  author text,
  title text NOT NULL,
  description text,
  url text,
  domain text,
  image_url text,
  published_at timestamptz NOT NULL,
  category text,
  country text,
  language text NOT NULL,
  story_id text,
  popularity integer,
  revision bigint NOT NULL,
  text_config regconfig NOT NULL DEFAULT 'english',
  document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector(text_config, title), 'A') || setweight(to_tsvector(text_config, coalesce(description, '')), 'B')
  ) STORED
);
CREATE INDEX articles_document ON articles USING gin (document) WITH (fastupdate = off);
CREATE INDEX articles_published ON articles (published_at DESC, id);
CREATE INDEX articles_country_published ON articles (country, published_at DESC);
CREATE INDEX articles_category_published ON articles (category, published_at DESC);
CREATE INDEX articles_source ON articles (source_id, published_at DESC);
CREATE INDEX articles_domain ON articles (domain);
CREATE INDEX articles_story ON articles (story_id) WHERE story_id IS NOT NULL;

-- Conditional GET state of each live feed.
CREATE TABLE feed_state (
  url text PRIMARY KEY,
  etag text,
  last_modified text,
  last_status integer,
  last_fetched_at timestamptz
);
