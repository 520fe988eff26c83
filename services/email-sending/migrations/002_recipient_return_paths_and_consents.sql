-- Each recipient's copy leaves with its own return path; these are the recipients still to be handed to the relay
-- after a temporary failure of some of them (NULL: every recipient of the message).
ALTER TABLE email_messages ADD COLUMN pending_recipients text[];

-- Consents that lifted an unsubscribe or a complaint: where the new consent came from, when it was given, and who
-- lifted the suppression (the recipient through the re-subscribe link, or the sender with a recorded consent).
CREATE TABLE email_consents (
  id bigserial PRIMARY KEY,
  account_id text NOT NULL,
  email text NOT NULL,
  lifted_reason text NOT NULL,
  lifted_by text NOT NULL,
  source text NOT NULL,
  consented_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL
);
CREATE INDEX email_consents_address ON email_consents (account_id, email, id);
