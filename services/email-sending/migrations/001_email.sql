-- Sending domains of an account; the service's own default domain is kept under account_id '' (the platform).
CREATE TABLE email_domains (
  account_id text NOT NULL,
  domain text NOT NULL,
  dkim_selector text NOT NULL,
  dkim_public_key text NOT NULL,
  dkim_private_key_enc text NOT NULL,
  spf_verified boolean NOT NULL DEFAULT false,
  dkim_verified boolean NOT NULL DEFAULT false,
  return_path_verified boolean NOT NULL DEFAULT false,
  verified_at timestamptz,
  last_checked_at timestamptz,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, domain)
);

-- One row per accepted message: the message itself and its place in the delivery queue.
CREATE TABLE email_messages (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  status text NOT NULL,
  category text NOT NULL,
  from_address text NOT NULL,
  from_name text,
  recipients text[] NOT NULL,
  to_addresses jsonb NOT NULL,
  cc_addresses jsonb NOT NULL,
  bcc_addresses jsonb NOT NULL,
  reply_to jsonb NOT NULL,
  subject text NOT NULL,
  html text NOT NULL,
  text_body text NOT NULL,
  headers jsonb NOT NULL,
  tags text[] NOT NULL,
  metadata jsonb NOT NULL,
  track_opens boolean NOT NULL,
  track_clicks boolean NOT NULL,
  template_name text,
  template_version integer,
  has_attachments boolean NOT NULL,
  submitted_at timestamptz NOT NULL,
  send_at timestamptz,
  sent_at timestamptz,
  -- The queue: waiting (due at next_attempt_at), leased (a worker has it until lease_until), done.
  queue_state text NOT NULL,
  priority smallint NOT NULL,
  next_attempt_at timestamptz NOT NULL,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  first_attempt_at timestamptz,
  last_error text
);
CREATE INDEX email_messages_due ON email_messages (priority DESC, next_attempt_at) WHERE queue_state = 'waiting';
CREATE INDEX email_messages_leased ON email_messages (lease_until) WHERE queue_state = 'leased';
CREATE INDEX email_messages_account ON email_messages (account_id, submitted_at DESC, id DESC);

CREATE TABLE email_attachments (
  message_id text NOT NULL REFERENCES email_messages (id) ON DELETE CASCADE,
  position integer NOT NULL,
  filename text NOT NULL,
  content_type text NOT NULL,
  content_id text,
  content bytea NOT NULL,
  PRIMARY KEY (message_id, position)
);

CREATE TABLE email_events (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL,
  message_id text NOT NULL REFERENCES email_messages (id) ON DELETE CASCADE,
  account_id text NOT NULL,
  type text NOT NULL,
  recipient text,
  detail jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX email_events_message ON email_events (message_id, id);

CREATE TABLE email_idempotency (
  account_id text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  status_code integer NOT NULL,
  response jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, key)
);

CREATE TABLE email_templates (
  account_id text NOT NULL,
  name text NOT NULL,
  version integer NOT NULL,
  subject text NOT NULL,
  html text NOT NULL,
  text_body text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, name, version)
);

CREATE TABLE email_contacts (
  account_id text NOT NULL,
  email text NOT NULL,
  consent_at timestamptz NOT NULL,
  source text NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, email)
);

CREATE TABLE email_suppressions (
  account_id text NOT NULL,
  email text NOT NULL,
  reason text NOT NULL,
  detail text NOT NULL,
  message_id text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, email)
);

CREATE TABLE email_webhooks (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  url text NOT NULL,
  event_types text[] NOT NULL,
  secret text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX email_webhooks_account ON email_webhooks (account_id);

-- Status changes waiting to be POSTed (and their retries): a queue of its own, claimed like the messages.
CREATE TABLE email_webhook_deliveries (
  id text PRIMARY KEY,
  webhook_id text NOT NULL REFERENCES email_webhooks (id) ON DELETE CASCADE,
  account_id text NOT NULL,
  payload text NOT NULL,
  state text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  lease_until timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL
);
CREATE INDEX email_webhook_deliveries_due ON email_webhook_deliveries (next_attempt_at) WHERE state = 'waiting';
