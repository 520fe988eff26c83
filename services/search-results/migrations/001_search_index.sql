-- The catalogue's standard tables come from @apiplat/catalogue (catalogueTables); these are the search index's.
-- Web pages: Wikipedia films and biographies, Stack Exchange questions and answers, crawled pages. id is the
-- canonical URL, the natural key of every upsert (a re-crawl of a page replaces it).
CREATE TABLE web_pages (
  id text PRIMARY KEY,
  dataset text NOT NULL,
  url text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  -- Facts of the record that are not prose (a film's director, cast and genre; a question's tags): searched, not shown.
  keywords text NOT NULL DEFAULT '',
  published_at timestamptz,
  language text,
  explicit boolean NOT NULL DEFAULT false,
  revision bigint NOT NULL,
  text_config regconfig NOT NULL DEFAULT 'english',
  document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector(text_config, title), 'A') || setweight(to_tsvector(text_config, keywords), 'C')
      || setweight(to_tsvector(text_config, body), 'B')
  ) STORED,
  title_document tsvector GENERATED ALWAYS AS (to_tsvector(text_config, title)) STORED
);
-- GIN's pending list on (unlike the other catalogues): page bodies are long, and writing each page's lexemes straight
-- into the index made the first load about a third slower; the VACUUM after every load empties the list.
CREATE INDEX web_pages_document ON web_pages USING gin (document);

-- COCO images, and their captions (five or so per image); an image's captions are gathered into `captions` after
-- each load, which its search vector is built from.
CREATE TABLE images (
  id bigint PRIMARY KEY,
  file_name text NOT NULL,
  original text NOT NULL,
  flickr_url text,
  width integer,
  height integer,
  licence_name text,
  licence_url text,
  captions text NOT NULL DEFAULT '',
  title text,
  explicit boolean NOT NULL DEFAULT false,
  revision bigint NOT NULL,
  document tsvector GENERATED ALWAYS AS (to_tsvector('english', captions)) STORED
);
CREATE INDEX images_document ON images USING gin (document) WITH (fastupdate = off);

CREATE TABLE image_captions (
  id bigint PRIMARY KEY,
  image_id bigint NOT NULL,
  caption text NOT NULL,
  revision bigint NOT NULL
);
CREATE INDEX image_captions_image ON image_captions (image_id, id);

-- News articles with a link (HuffPost and UCI News Aggregator), id from the canonical URL.
CREATE TABLE news_articles (
  id text PRIMARY KEY,
  dataset text NOT NULL,
  url text NOT NULL,
  title text NOT NULL,
  snippet text,
  source_name text NOT NULL,
  published_at timestamptz NOT NULL,
  explicit boolean NOT NULL DEFAULT false,
  revision bigint NOT NULL,
  document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', coalesce(snippet, '')), 'B')
  ) STORED
);
CREATE INDEX news_articles_document ON news_articles USING gin (document);
