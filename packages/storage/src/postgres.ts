import pg from "pg";
import { INT8_OID, type Database, type Queryable, type QueryResult } from "./database.js";

export interface PostgresOptions {
  /** Sets search_path on every connection (tests run each file in a schema of its own). */
  schema?: string;
  maxConnections?: number;
}

// bigint counts never exceed 2^53 here; numbers are simpler for callers than strings.
const types = {
  getTypeParser: (oid: number, format?: "text" | "binary") =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as "text"),
};

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      const result = await client.query(sql, params as unknown[] | undefined);
      return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
    },
    async exec(sql: string): Promise<void> {
      await client.query(sql);
    },
  };
}

export function createPostgresDatabase(url: string, options: PostgresOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.maxConnections ?? 10,
    types: types as pg.CustomTypesConfig,
    options: options.schema ? `-c search_path=${options.schema}` : undefined,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  const base = wrap(pool);
  return {
    kind: "postgres",
    ...base,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async ping() {
      await pool.query("SELECT 1");
    },
    async close() {
      if (!pool.ended) await pool.end();
    },
  };
}
