-- Inboxes: a hook URL with its settings. Everything belongs to the subscriber's account.
CREATE TABLE webhook_inboxes (
  id uuid PRIMARY KEY,
  -- Orders an account's inboxes (newest first) for cursor pagination.
  seq bigserial NOT NULL UNIQUE,
  account_id text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  -- The custom answer given to senders; NULL status means the service's default JSON answer.
  response_status integer,
  response_body text,
  response_content_type text,
  cors boolean NOT NULL DEFAULT true,
  basic_auth_username text,
  basic_auth_salt bytea,
  basic_auth_hash bytea,
  ip_allowlist text[] NOT NULL DEFAULT '{}',
  forward_url text,
  signing_secret text NOT NULL,
  -- After a rotation the old secret keeps signing (as a second signature) until this time.
  previous_signing_secret text,
  previous_secret_expires_at timestamptz
);
CREATE INDEX webhook_inboxes_account ON webhook_inboxes (account_id, seq DESC);
CREATE INDEX webhook_inboxes_expiry ON webhook_inboxes (expires_at);

-- Captured requests, exactly as received. seq orders them (newest first) and is the SSE event id.
CREATE TABLE webhook_requests (
  seq bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  inbox_id uuid NOT NULL REFERENCES webhook_inboxes (id) ON DELETE CASCADE,
  received_at timestamptz NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  query_string text NOT NULL,
  headers jsonb NOT NULL,
  body bytea NOT NULL,
  body_size integer NOT NULL,
  content_type text,
  source_ip text NOT NULL
);
CREATE INDEX webhook_requests_inbox_seq ON webhook_requests (inbox_id, seq DESC);

-- The durable forwarding queue: one row per captured request of an inbox that forwards.
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  request_id uuid NOT NULL UNIQUE REFERENCES webhook_requests (id) ON DELETE CASCADE,
  inbox_id uuid NOT NULL REFERENCES webhook_inboxes (id) ON DELETE CASCADE,
  destination_url text NOT NULL,
  -- pending -> succeeded | failed | cancelled
  state text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  locked_until timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_inbox ON webhook_deliveries (inbox_id) WHERE state = 'pending';

-- Every attempt to send a captured request somewhere: forwarding attempts and replays.
CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  request_id uuid NOT NULL REFERENCES webhook_requests (id) ON DELETE CASCADE,
  kind text NOT NULL,
  attempt integer NOT NULL,
  url text NOT NULL,
  started_at timestamptz NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  response_body text,
  next_attempt_at timestamptz
);
CREATE INDEX webhook_attempts_request ON webhook_attempts (request_id, id);
