import pg from "pg";
import { databaseSpan, tracing } from "@apiplat/tracing";
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

/** A connection pool with the platform's type parsers: every Database is one of these. */
export function createPool(url: string, config: Omit<pg.PoolConfig, "connectionString" | "types"> = {}): pg.Pool {
  const pool = new pg.Pool({ connectionTimeoutMillis: 5_000, ...config, connectionString: url, types: types as pg.CustomTypesConfig });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  return pool;
}

/**
 * A statement on a client of the pool, taken and given back here rather than by `pool.query`: a connection the pool
 * opens for a statement keeps, for as long as it lives, the callbacks of the call that opened it (node-postgres's
 * connect listener holds them), and through `pool.query`'s callbacks that call's result. A catalogue's snapshot, read
 * on connections opened for it, stayed in memory beside the rows made from it (four results, some 130,000 objects,
 * in a heap snapshot of search-results). Through `pool.connect` a connection keeps only the client it was opened for.
 */
async function onPoolClient(pool: pg.Pool, sql: string, params?: unknown[]): Promise<pg.QueryResult> {
  const client = await pool.connect();
  let failure: Error | undefined;
  // As pool.query does: a connection that fails while it runs is not given back to the pool.
  const onError = (error: Error) => (failure = error);
  client.on("error", onError);
  try {
    return await client.query(sql, params);
  } catch (error) {
    failure = error as Error;
    throw error;
  } finally {
    client.off("error", onError);
    client.release(failure);
  }
}

/** A Queryable on a pool or on one client of it; each statement is a span of the request's trace when tracing is on. */
export function queryableOn(client: pg.Pool | pg.PoolClient): Queryable {
  const run = (sql: string, params?: unknown[]) => (client instanceof pg.Pool ? onPoolClient(client, sql, params) : client.query(sql, params));
  const query = async <Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> => {
    const result = await run(sql, params);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? result.rows.length };
  };
  return {
    query<Row>(sql: string, params?: unknown[]): Promise<QueryResult<Row>> {
      return tracing.on ? databaseSpan(sql, () => query<Row>(sql, params)) : query<Row>(sql, params);
    },
    async exec(sql: string): Promise<void> {
      if (tracing.on) await databaseSpan(sql, () => run(sql));
      else await run(sql);
    },
  };
}

/** `work` between BEGIN and COMMIT on one client, rolled back when it throws. */
export async function inTransaction<T>(client: pg.PoolClient, work: (tx: Queryable) => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await work(queryableOn(client));
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}

/** The Database calls on a pool; `close` says what closing this handle releases. */
function poolDatabase(pool: pg.Pool, close: () => Promise<void>): Omit<Database, "withSearchPath"> {
  let closed: Promise<void> | undefined;
  return {
    kind: "postgres",
    ...queryableOn(pool),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        return await inTransaction(client, work);
      } finally {
        client.release();
      }
    },
    async ping() {
      await pool.query("SELECT 1");
    },
    close() {
      closed ??= close();
      return closed;
    },
  };
}

export function createPostgresDatabase(url: string, options: PostgresOptions = {}): Database {
  const max = options.maxConnections ?? 10;
  const pool = createPool(url, { max, options: options.schema ? `-c search_path=${options.schema}` : undefined });
  const scoped = new Map<string, pg.Pool>();
  const db = poolDatabase(pool, async () => {
    await Promise.all([...scoped.values(), pool].filter((p) => !p.ended).map((p) => p.end()));
  });
  const withSearchPath = (schemas: readonly string[]): Database => {
    const path = schemas.join(",");
    if (!/^[a-z0-9_]+(,[a-z0-9_]+)*$/.test(path)) throw new Error(`unsafe search_path: ${path}`);
    let scopedPool = scoped.get(path);
    if (!scopedPool) {
      scopedPool = createPool(url, { max, options: `-c search_path=${path}` });
      scoped.set(path, scopedPool);
    }
    // The pool is this Database's to end; the view's close releases nothing.
    return { ...poolDatabase(scopedPool, async () => {}), withSearchPath };
  };
  return { ...db, withSearchPath };
}
