import type { Database, Queryable } from "./database.js";

/**
 * A Database whose statements run in a PostgreSQL schema of the service's own, so that services sharing one database
 * (the local start, the test suites) cannot collide by table name. Its search_path is the service's schema first, then
 * the connection's own path, where the platform's tables are. On PostgreSQL the view has connections of its own with
 * that path set at connect (one round trip per statement); on the embedded database, whose one connection is shared,
 * every statement runs in a transaction that sets `search_path` locally, so the setting never leaks to the next user. The schema is named after the
 * service, prefixed with the connection's own schema when that is not `public` (a test file's `test_<id>_news`).
 */
export async function scopeToSchema(db: Database, service: string): Promise<Database> {
  if (db.schema) return db;
  const { rows } = await db.query<{ base: string }>("SELECT current_schema() AS base");
  const base = rows[0]?.base ?? "public";
  const own = `${base === "public" ? "" : `${base}_`}${service.replace(/[^a-z0-9]+/gi, "_").toLowerCase()}`;
  await db.exec(`CREATE SCHEMA IF NOT EXISTS "${own}"`);
  // Where the back end can give the service connections of its own, their search_path is set once, at connect.
  if (db.withSearchPath && /^[a-z0-9_]+$/.test(base)) return { ...db.withSearchPath([own, base]), schema: own };
  const setPath = `SET LOCAL search_path TO "${own}", "${base}"`;
  const inSchema = <T>(work: (tx: Queryable) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.exec(setPath);
      return work(tx);
    });
  return {
    kind: db.kind,
    schema: own,
    // VACUUM cannot run in a transaction: it names its table with the schema (see the catalogue's settleTables).
    query: (sql, params) => (/^\s*VACUUM\b/i.test(sql) ? db.query(sql, params) : inSchema((tx) => tx.query(sql, params))),
    exec: (sql) => inSchema((tx) => tx.exec(sql)),
    transaction: inSchema,
    ping: () => db.ping(),
    // The platform owns the connection; the service's view of it has nothing of its own to close.
    close: async () => {},
  };
}
