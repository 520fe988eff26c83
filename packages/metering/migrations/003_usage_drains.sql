-- Paid plans' usage is counted in Redis with each admission (a usage log) and moved here about once a second by
-- whichever service process takes the log (see src/usage-log.ts). Each move is recorded in the same transaction as its
-- counts, so that a move retried after a crash (the counts written, the process killed before it let go of the log)
-- is applied once.
CREATE TABLE usage_drains (
  id text PRIMARY KEY,
  drained_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_drains_drained_at ON usage_drains (drained_at);
