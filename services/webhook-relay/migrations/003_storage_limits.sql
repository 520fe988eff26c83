-- Large bodies live beside their capture, in parts written one statement each, so that no single
-- statement (nor its parameter encoding) has to carry a 10 MiB value. A capture's own `body` holds
-- bodies up to 64 KiB; a larger one leaves it NULL and is kept here, part 0, 1, ... in order.
CREATE TABLE webhook_request_bodies (
  request_id uuid NOT NULL REFERENCES webhook_requests (id) ON DELETE CASCADE,
  part integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (request_id, part)
);
ALTER TABLE webhook_requests ALTER COLUMN body DROP NOT NULL;

-- What each capture counts against its owner's stored-bytes quota (body, path, query and headers).
ALTER TABLE webhook_requests ADD COLUMN account_id text;
ALTER TABLE webhook_requests ADD COLUMN stored_bytes bigint;
UPDATE webhook_requests r
SET account_id = i.account_id,
    stored_bytes = r.body_size + octet_length(r.path) + octet_length(r.query_string) + octet_length(r.headers::text)
FROM webhook_inboxes i WHERE i.id = r.inbox_id;
ALTER TABLE webhook_requests ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE webhook_requests ALTER COLUMN stored_bytes SET NOT NULL;

-- The owner's quota, fixed at the inbox's creation from the account's plan (like retention and
-- max_requests). Inboxes made before this migration get their plan's quota back from max_requests.
ALTER TABLE webhook_inboxes ADD COLUMN max_stored_bytes bigint NOT NULL DEFAULT 104857600;
UPDATE webhook_inboxes SET max_stored_bytes = CASE max_requests
  WHEN 10000 THEN 2147483648
  WHEN 100000 THEN 21474836480
  ELSE 104857600 END;

-- Bytes each account has stored: raised by the statement that stores a capture (only when it stays
-- within the quota), lowered by the trigger below whenever captures are deleted, however that happens
-- (retention purge, per-inbox cap, deleting an inbox: cascades fire it too).
CREATE TABLE webhook_account_storage (
  account_id text PRIMARY KEY,
  stored_bytes bigint NOT NULL
);
INSERT INTO webhook_account_storage (account_id, stored_bytes)
SELECT account_id, sum(stored_bytes) FROM webhook_requests GROUP BY account_id;

CREATE FUNCTION webhook_release_storage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE webhook_account_storage s
  SET stored_bytes = s.stored_bytes - gone.bytes
  FROM (SELECT account_id, sum(stored_bytes) AS bytes FROM gone_requests GROUP BY account_id) gone
  WHERE s.account_id = gone.account_id;
  RETURN NULL;
END
$$;

CREATE TRIGGER webhook_requests_release_storage
AFTER DELETE ON webhook_requests
REFERENCING OLD TABLE AS gone_requests
FOR EACH STATEMENT EXECUTE FUNCTION webhook_release_storage();
