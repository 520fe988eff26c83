import type { Database } from "./database.js";
import type { KeyValueStore } from "./key-value.js";
import { createMemoryStore } from "./memory-store.js";
import { createPostgresDatabase } from "./postgres.js";
import { createRedisStore } from "./redis-store.js";

/** PostgreSQL at `url` (in `schema` when given). `npm start` sets the URL of its local server when none is configured. */
export async function openDatabase(url: string | undefined, schema?: string): Promise<Database> {
  if (!url) throw new Error("DATABASE_URL is not set: point it at PostgreSQL, or run `npm start`, which runs a local PostgreSQL server for its services.");
  return createPostgresDatabase(url, { schema });
}

/** Redis when a URL is configured (every key and channel under `keyPrefix`), else the in-process store. */
export async function openKeyValueStore(url: string | undefined, keyPrefix?: string): Promise<KeyValueStore> {
  return url ? createRedisStore(url, { keyPrefix }) : createMemoryStore();
}
