import type { Database } from "./database.js";
import { createEmbeddedDatabase } from "./embedded.js";
import type { KeyValueStore } from "./key-value.js";
import { createMemoryStore } from "./memory-store.js";
import { createPostgresDatabase } from "./postgres.js";
import { createRedisStore } from "./redis-store.js";

/** PostgreSQL when a URL is configured (in `schema` when given), else the embedded PGlite. */
export async function openDatabase(url: string | undefined, embeddedDataDir?: string, schema?: string): Promise<Database> {
  return url ? createPostgresDatabase(url, { schema }) : createEmbeddedDatabase(embeddedDataDir);
}

/** Redis when a URL is configured (every key and channel under `keyPrefix`), else the in-process store. */
export async function openKeyValueStore(url: string | undefined, keyPrefix?: string): Promise<KeyValueStore> {
  return url ? createRedisStore(url, { keyPrefix }) : createMemoryStore();
}
