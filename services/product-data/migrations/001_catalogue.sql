-- The catalogue's standard tables come from @apiplat/catalogue (catalogueTables); these are the product tables.
-- One row per ASIN. A field the dataset lacks is null. Products known only from reviews (the Fine Food file) are
-- created after the reviews are loaded, with their rating computed from those reviews (rating_basis 'reviews').
CREATE TABLE products (
  asin text PRIMARY KEY,
  locale text NOT NULL,
  dataset text NOT NULL,
  title text,
  brand text,
  image_url text,
  product_url text,
  currency text,
  price numeric(12, 2),
  list_price numeric(12, 2),
  rating numeric(3, 2),
  ratings_count integer,
  rating_basis text NOT NULL,
  category_id text,
  category_name text,
  is_best_seller boolean,
  bought_last_month integer,
  -- Derived from the reviews table after each load.
  review_count integer NOT NULL DEFAULT 0,
  review_titles text,
  revision bigint NOT NULL,
  document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', coalesce(title, '')), 'A')
    || setweight(to_tsvector('english', coalesce(category_name, '')), 'C')
    || setweight(to_tsvector('english', coalesce(review_titles, '')), 'D')
  ) STORED
);
CREATE INDEX products_document ON products USING gin (document) WITH (fastupdate = off);
CREATE INDEX products_locale_category ON products (locale, category_id);
CREATE INDEX products_category ON products (category_id);
CREATE INDEX products_price ON products (price, asin);
CREATE INDEX products_rating ON products (rating DESC NULLS LAST, ratings_count DESC NULLS LAST, asin);
CREATE INDEX products_best_sellers ON products (is_best_seller DESC NULLS LAST, bought_last_month DESC NULLS LAST, ratings_count DESC NULLS LAST, asin);

-- One row per review; rating is null where the file gives no score.
CREATE TABLE reviews (
  id text PRIMARY KEY,
  asin text NOT NULL,
  locale text NOT NULL,
  dataset text NOT NULL,
  rating smallint CHECK (rating BETWEEN 1 AND 5),
  title text,
  body text,
  author text,
  author_id text,
  reviewed_on date NOT NULL,
  helpful_votes integer,
  total_votes integer,
  verified_purchase boolean,
  revision bigint NOT NULL,
  document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', coalesce(title, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'B')
  ) STORED
);
-- Reviews are only ever read for one product (at most a few hundred rows), words included: the ASIN index finds
-- them and the text match runs on those rows, so the stored vector needs no GIN index (maintaining one doubled the load time).
CREATE INDEX reviews_asin_recent ON reviews (asin, reviewed_on DESC, revision);
