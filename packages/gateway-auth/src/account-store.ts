import { randomUUID } from "node:crypto";
import type { PlanName } from "@apiplat/config";
import type { Database, Queryable } from "@apiplat/storage";
import { displayPrefix, generateApiKey, hashApiKey } from "./keys.js";

export interface Account {
  id: string;
  name: string;
  external_id: string | null;
  created_at: string;
}

export interface Subscription {
  account_id: string;
  service: string;
  plan: PlanName;
  updated_at: string;
}

export interface ApiKeyRecord {
  id: string;
  account_id: string;
  key_prefix: string;
  status: "active" | "revoked";
  created_at: string;
  revoked_at: string | null;
}

/** What a key resolves to for one service: the account, and its plan there (null: not subscribed). */
export interface KeyGrant {
  keyId: string;
  accountId: string;
  active: boolean;
  plan: PlanName | null;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function toAccount(row: Record<string, unknown>): Account {
  return { id: row.id as string, name: row.name as string, external_id: (row.external_id as string) ?? null, created_at: iso(row.created_at as Date)! };
}

function toKey(row: Record<string, unknown>): ApiKeyRecord {
  return {
    id: row.id as string,
    account_id: row.account_id as string,
    key_prefix: row.key_prefix as string,
    status: row.status as ApiKeyRecord["status"],
    created_at: iso(row.created_at as Date)!,
    revoked_at: iso(row.revoked_at as Date | null),
  };
}

/** Accounts, their keys and subscriptions, in PostgreSQL. */
export class AccountStore {
  constructor(private readonly db: Database) {}

  async createAccount(name: string, externalId: string | null = null): Promise<Account> {
    const { rows } = await this.db.query("INSERT INTO accounts (id, name, external_id) VALUES ($1, $2, $3) RETURNING *", [randomUUID(), name, externalId]);
    return toAccount(rows[0]);
  }

  async listAccounts(): Promise<Account[]> {
    const { rows } = await this.db.query("SELECT * FROM accounts ORDER BY created_at, id");
    return rows.map(toAccount);
  }

  async getAccount(id: string): Promise<Account | null> {
    const { rows } = await this.db.query("SELECT * FROM accounts WHERE id = $1", [id]);
    return rows[0] ? toAccount(rows[0]) : null;
  }

  /** The account of a marketplace subscriber, made on first sight (proxy mode). */
  async accountForSubscriber(externalId: string): Promise<Account> {
    const { rows } = await this.db.query(
      `INSERT INTO accounts (id, name, external_id) VALUES ($1, $2, $2::text)
       ON CONFLICT (external_id) DO UPDATE SET external_id = excluded.external_id RETURNING *`,
      [randomUUID(), externalId],
    );
    return toAccount(rows[0]);
  }

  async subscribe(accountId: string, services: readonly string[], plan: PlanName, db: Queryable = this.db): Promise<Subscription[]> {
    const { rows } = await db.query<Subscription & { updated_at: Date }>(
      `INSERT INTO subscriptions (account_id, service, plan)
       SELECT $1, service, $3 FROM unnest($2::text[]) AS service
       ON CONFLICT (account_id, service) DO UPDATE SET plan = excluded.plan, updated_at = now()
       RETURNING account_id, service, plan, updated_at`,
      [accountId, services, plan],
    );
    return rows.map((r) => ({ ...r, updated_at: iso(r.updated_at)! })).sort((a, b) => a.service.localeCompare(b.service));
  }

  async listSubscriptions(accountId: string): Promise<Subscription[]> {
    const { rows } = await this.db.query<Subscription & { updated_at: Date }>(
      "SELECT account_id, service, plan, updated_at FROM subscriptions WHERE account_id = $1 ORDER BY service",
      [accountId],
    );
    return rows.map((r) => ({ ...r, updated_at: iso(r.updated_at)! }));
  }

  /** Makes a key; the clear key is returned here and never stored. */
  async createKey(accountId: string): Promise<{ record: ApiKeyRecord; key: string }> {
    const key = generateApiKey();
    const { rows } = await this.db.query("INSERT INTO api_keys (id, account_id, key_hash, key_prefix) VALUES ($1, $2, $3, $4) RETURNING *", [
      randomUUID(),
      accountId,
      hashApiKey(key),
      displayPrefix(key),
    ]);
    return { record: toKey(rows[0]), key };
  }

  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const { rows } = await this.db.query("SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id", [accountId]);
    return rows.map(toKey);
  }

  /** Returns the revoked key, or null when there is no such key. Revoking twice keeps the first time. */
  async revokeKey(keyId: string): Promise<ApiKeyRecord | null> {
    const { rows } = await this.db.query(`UPDATE api_keys SET status = 'revoked', revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING *`, [keyId]);
    return rows[0] ? toKey(rows[0]) : null;
  }

  async grantForKey(keyHash: string, service: string): Promise<KeyGrant | null> {
    const { rows } = await this.db.query<{ id: string; account_id: string; status: string; plan: PlanName | null }>(
      `SELECT k.id, k.account_id, k.status, s.plan
         FROM api_keys k LEFT JOIN subscriptions s ON s.account_id = k.account_id AND s.service = $2
        WHERE k.key_hash = $1`,
      [keyHash, service],
    );
    const row = rows[0];
    return row ? { keyId: row.id, accountId: row.account_id, active: row.status === "active", plan: row.plan } : null;
  }
}
