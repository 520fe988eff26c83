import type { Extensions } from "@electric-sql/pglite";

/**
 * The PostgreSQL extensions the embedded PGlite loads, in one place so that whatever hosts PGlite (this process or a
 * worker thread) loads the same set. A real server ships them as contrib; migrations still run
 * `CREATE EXTENSION IF NOT EXISTS ...`, which on PGlite works only for an extension loaded here.
 *
 * - pg_trgm: trigram similarity for typo-tolerant and prefix search (the catalogue services).
 */
export async function embeddedExtensions(): Promise<Extensions> {
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  return { pg_trgm };
}
