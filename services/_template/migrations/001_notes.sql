CREATE TABLE notes (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  word_count integer NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX notes_account ON notes (account_id, created_at DESC);
