-- Billable usage: requests per month (UTC, "YYYY-MM"), account, key, service and endpoint ("GET /hash").
CREATE TABLE usage_counts (
  month text NOT NULL,
  account_id uuid NOT NULL,
  key_id uuid NOT NULL,
  service text NOT NULL,
  endpoint text NOT NULL,
  requests bigint NOT NULL,
  PRIMARY KEY (month, account_id, key_id, service, endpoint)
);
CREATE INDEX usage_counts_account_month ON usage_counts (account_id, month);
