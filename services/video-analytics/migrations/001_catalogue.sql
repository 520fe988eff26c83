-- The catalogue's standard tables come from @apiplat/catalogue (catalogueTables); these are the video tables.
-- Category names per country, from the YouTube API's videoCategoryListResponse files.
CREATE TABLE categories (
  country text NOT NULL,
  category_id integer NOT NULL,
  title text NOT NULL,
  PRIMARY KEY (country, category_id)
);

-- array_to_string is only STABLE (it could depend on an element type's output function); for text[] it is in
-- fact immutable, which a generated column needs.
CREATE FUNCTION tags_text(tags text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT array_to_string(tags, ' ') $$;

-- One row per video: its metadata (from the latest full record) and a summary of its snapshots, refreshed after
-- each ingestion so that search can filter and sort on it.
CREATE TABLE videos (
  video_id text PRIMARY KEY,
  title text NOT NULL,
  channel_id text,
  channel_title text,
  category_id integer,
  category_country text NOT NULL,
  published_at timestamptz,
  tags text[] NOT NULL DEFAULT '{}',
  description text,
  thumbnail_url text,
  comments_disabled boolean,
  ratings_disabled boolean,
  revision bigint NOT NULL,
  latest_trending_date date,
  latest_views bigint,
  latest_likes bigint,
  latest_dislikes bigint,
  latest_comments bigint,
  first_trending_date date,
  first_views bigint,
  days_trending integer,
  countries text[],
  peak_rank integer,
  engagement_rate double precision,
  views_gained_per_day double precision,
  document tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', title), 'A')
    || setweight(to_tsvector('english', tags_text(tags)), 'B')
    || setweight(to_tsvector('english', coalesce(description, '')), 'C')
  ) STORED
);
CREATE INDEX videos_document ON videos USING gin (document) WITH (fastupdate = off);
CREATE INDEX videos_channel ON videos (channel_id);
CREATE INDEX videos_views ON videos (latest_views DESC NULLS LAST, video_id);
CREATE INDEX videos_countries ON videos USING gin (countries) WITH (fastupdate = off);

-- One row per video, country and trending day.
CREATE TABLE snapshots (
  video_id text NOT NULL,
  country text NOT NULL,
  trending_date date NOT NULL,
  views bigint NOT NULL,
  likes bigint,
  dislikes bigint,
  comments bigint,
  list_position integer,
  revision bigint NOT NULL,
  velocity double precision,
  PRIMARY KEY (video_id, country, trending_date)
);
CREATE INDEX snapshots_day ON snapshots (country, trending_date, velocity DESC);
