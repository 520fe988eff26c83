import { INT8_OID, type Database, type Queryable, type QueryResult } from "./database.js";
import { embeddedExtensions } from "./embedded-extensions.js";

interface PgliteLike {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

function wrap(db: PgliteLike): Queryable {
  return {
    async query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      const result = await db.query<Row>(sql, params);
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await db.exec(sql);
    },
  };
}

/**
 * The embedded default: PostgreSQL compiled to WebAssembly (PGlite), running in this process.
 * With a data directory it persists there; without one it lives in memory.
 */
export async function createEmbeddedDatabase(dataDir?: string): Promise<Database> {
  // Loaded on demand: the WebAssembly build costs tens of MB that a service on real PostgreSQL never needs.
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(dataDir, {
    parsers: { [INT8_OID]: (value: string) => Number(value) },
    extensions: await embeddedExtensions(),
  });
  return {
    kind: "embedded",
    ...wrap(db as unknown as PgliteLike),
    transaction: <T>(work: (tx: Queryable) => Promise<T>) =>
      db.transaction((tx) => work(wrap(tx as unknown as PgliteLike))),
    async ping() {
      await db.query("SELECT 1");
    },
    async close() {
      await db.close();
    },
  };
}
