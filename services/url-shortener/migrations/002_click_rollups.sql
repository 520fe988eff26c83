-- Daily aggregates that stats read instead of scanning raw clicks.
-- Visitor fingerprints change every UTC day (the salt rotates), so distinct visitors add up exactly across days.

-- The (link, day, visitor) triples seen so far: a new row marks a visitor's first click of the day.
CREATE TABLE IF NOT EXISTS shortener_daily_visitors (
  link_id      bigint NOT NULL REFERENCES shortener_links (id) ON DELETE CASCADE,
  day          date   NOT NULL,
  visitor_hash text   NOT NULL,
  PRIMARY KEY (link_id, day, visitor_hash)
);

-- Per link and day, one row per combination of values seen: hits and distinct visitors. A visitor counts once a day,
-- on the combination of its first click that day, so summing visitors over any one dimension gives distinct
-- visitors per value of that dimension. Bots are counted apart (is_bot, with empty values).
CREATE TABLE IF NOT EXISTS shortener_click_daily (
  link_id     bigint  NOT NULL REFERENCES shortener_links (id) ON DELETE CASCADE,
  day         date    NOT NULL,
  is_bot      boolean NOT NULL,
  referrer    text    NOT NULL,
  country     text    NOT NULL,
  device_type text    NOT NULL,
  browser     text    NOT NULL,
  os          text    NOT NULL,
  hits        bigint  NOT NULL DEFAULT 0,
  visitors    bigint  NOT NULL DEFAULT 0,
  PRIMARY KEY (link_id, day, is_bot, referrer, country, device_type, browser, os)
);

-- Clicks written before this migration (visitors counted on the values of their first click of each day).
INSERT INTO shortener_daily_visitors (link_id, day, visitor_hash)
SELECT DISTINCT link_id, (clicked_at AT TIME ZONE 'UTC')::date, visitor_hash FROM shortener_clicks WHERE NOT is_bot
ON CONFLICT DO NOTHING;

INSERT INTO shortener_click_daily (link_id, day, is_bot, referrer, country, device_type, browser, os, hits, visitors)
SELECT link_id, day, false, referrer, country, device_type, browser, os, count(*), count(*) FILTER (WHERE first_of_day)
FROM (
  SELECT link_id, (clicked_at AT TIME ZONE 'UTC')::date AS day,
         coalesce(referrer_domain, 'direct') AS referrer, coalesce(country, 'unknown') AS country, device_type,
         coalesce(browser, 'unknown') AS browser, coalesce(os, 'unknown') AS os,
         row_number() OVER (PARTITION BY link_id, (clicked_at AT TIME ZONE 'UTC')::date, visitor_hash ORDER BY clicked_at, id) = 1 AS first_of_day
  FROM shortener_clicks WHERE NOT is_bot
) AS c
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
ON CONFLICT DO NOTHING;

INSERT INTO shortener_click_daily (link_id, day, is_bot, referrer, country, device_type, browser, os, hits, visitors)
SELECT link_id, (clicked_at AT TIME ZONE 'UTC')::date, true, '', '', '', '', '', count(*), 0 FROM shortener_clicks WHERE is_bot GROUP BY 1, 2
ON CONFLICT DO NOTHING;
