-- Batches of clicks drained from the shared click log, by id: writing a batch records its id in the same
-- transaction, so a batch written again (its taker died after the commit, before letting it go) adds nothing.
CREATE TABLE IF NOT EXISTS shortener_click_drains (
  id text PRIMARY KEY,
  drained_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS shortener_click_drains_drained_at ON shortener_click_drains (drained_at);
