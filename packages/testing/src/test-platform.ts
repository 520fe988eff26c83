import { randomBytes } from "node:crypto";
import pg from "pg";
import { Redis } from "ioredis";
import { loadConfig, serviceEndpoint, type AppName, type PlanName, type PlatformConfig } from "@apiplat/config";
import { AccountStore, gatewayAuthMigrations } from "@apiplat/gateway-auth";
import { meteringMigrations } from "@apiplat/metering";
import { createMemoryStore, createPostgresDatabase, createRedisStore, migrate, type Database, type KeyValueStore } from "@apiplat/storage";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export interface TestDeps {
  config: PlatformConfig;
  db: Database;
  kv: KeyValueStore;
  now: () => Date;
  /** Where the app's log lines go (standard output when unset). */
  logStream?: { write(line: string): void };
}

export interface TestSubscriber {
  accountId: string;
  keyId: string;
  key: string;
  /** X-Gateway-Key and X-Gateway-Host for the service. */
  headers: Record<string, string>;
}

export interface TestPlatformOptions {
  /** Environment overrides for the config (e.g. OUTBOUND_ALLOW_CIDRS). */
  env?: Record<string, string>;
  now?: () => Date;
}

export interface TestPlatform {
  deps: TestDeps;
  /**
   * The environment a service process needs to run on this platform and see what the test made (accounts, keys,
   * tables): the real servers' URLs with this test's schema and key prefix, and the test's configuration.
   */
  processEnv: Record<string, string>;
  accounts: AccountStore;
  /** A new account subscribed to `service` on `plan`, with one key. */
  subscribe(service: AppName, plan: PlanName): Promise<TestSubscriber>;
  /** The gateway headers for `service` with a given key. */
  headersFor(service: AppName, key: string): Record<string, string>;
  close(): Promise<void>;
}

/**
 * Real PostgreSQL in a schema of its own and real Redis under a key prefix of its own, so that test
 * files run in parallel without seeing each other. close() drops both.
 */
export async function createTestPlatform(options: TestPlatformOptions = {}): Promise<TestPlatform> {
  const id = randomBytes(6).toString("hex");
  const config = loadConfig({
    LOG_LEVEL: "silent",
    METERING_FLUSH_MS: "0",
    // Tests send far more than a plan's requests per second; the limit's own tests turn it on.
    RATE_LIMITS: "off",
    ...options.env,
  });
  const configEnv = Object.fromEntries(Object.entries(config.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const schema = `test_${id}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = createPostgresDatabase(TEST_DATABASE_URL, { schema, maxConnections: 5 });
  const prefix = `test:${id}:`;
  const kv = await createRedisStore(TEST_REDIS_URL, { keyPrefix: prefix });
  const processEnv = { ...configEnv, DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: prefix };
  const cleanup = async () => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    // The schema, and the ones services with a schema of their own made beside it (test_<id>_<service>).
    const { rows } = await admin.query<{ name: string }>("SELECT nspname AS name FROM pg_namespace WHERE nspname = $1 OR nspname LIKE $2", [
      schema,
      `${schema}\\_%`,
    ]);
    for (const { name } of rows) await admin.query(`DROP SCHEMA "${name}" CASCADE`);
    await admin.end();
    const redis = new Redis(TEST_REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  };
  await migrate(db, "gateway-auth", gatewayAuthMigrations);
  await migrate(db, "metering", meteringMigrations);
  const accounts = new AccountStore(db);
  const headersFor = (service: AppName, key: string) => ({
    "x-gateway-key": key,
    "x-gateway-host": serviceEndpoint(config, service).host,
  });

  return {
    deps: { config, db, kv, now: options.now ?? (() => new Date()) },
    processEnv,
    accounts,
    headersFor,
    async subscribe(service, plan) {
      const account = await accounts.createAccount(`test ${service} ${plan}`);
      await accounts.subscribe(account.id, [service], plan);
      const { record, key } = await accounts.createKey(account.id);
      return { accountId: account.id, keyId: record.id, key, headers: headersFor(service, key) };
    },
    async close() {
      await kv.close();
      await db.close();
      await cleanup();
    },
  };
}
