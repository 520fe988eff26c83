-- Subscribers of the marketplace: an account owns keys and holds one subscription (plan) per service.
CREATE TABLE accounts (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  -- The marketplace's subscriber id in proxy mode; null for accounts made through the admin API.
  external_id text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  -- SHA-256 of the key: keys are 190-bit random strings, so a fast hash is enough and no salt is needed.
  key_hash text NOT NULL UNIQUE,
  -- The first characters, so that an operator can tell keys apart without the secret.
  key_prefix text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE subscriptions (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  service text NOT NULL,
  plan text NOT NULL CHECK (plan IN ('BASIC', 'PRO', 'ULTRA', 'MEGA')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, service)
);
