import type { Database } from "./database.js";

/**
 * A Database whose statements run in a PostgreSQL schema of the service's own, so that services sharing one database
 * (the local start, the test suites) cannot collide by table name. Its search_path is the service's schema first, then
 * the connection's own path, where the platform's tables are, through connections of its own with that path set at
 * connect (see withSearchPath). The schema is named after the service, prefixed with the connection's own schema when that is
 * not `public` (a test file's `test_<id>_news`).
 */
export async function scopeToSchema(db: Database, service: string): Promise<Database> {
  if (db.schema) return db;
  const { rows } = await db.query<{ base: string }>("SELECT current_schema() AS base");
  const base = rows[0]?.base ?? "public";
  const own = `${base === "public" ? "" : `${base}_`}${service.replace(/[^a-z0-9]+/gi, "_").toLowerCase()}`;
  await createSchema(db, own);
  return { ...db.withSearchPath([own, base]), schema: own };
}

/**
 * `CREATE SCHEMA IF NOT EXISTS` is not safe against itself: of replicas starting at once on a new database, all but one
 * can fail on the catalog's unique index (23505) while the one creates it. The schema then exists, which is all we ask.
 */
async function createSchema(db: Database, schema: string): Promise<void> {
  try {
    await db.exec(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "23505" && code !== "42P06") throw error;
  }
}
