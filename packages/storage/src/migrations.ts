import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./database.js";

const MIGRATION_FILE = /^(\d{3,})_[\w-]+\.sql$/;
// Any constant works: it only has to be the same for every process migrating this database.
const MIGRATION_LOCK_ID = 727_001;

export type MigrationSource = string | URL;

function toPath(source: MigrationSource): string {
  return source instanceof URL ? fileURLToPath(source) : source;
}

/**
 * Applies the numbered SQL files of `source` (001_init.sql, 002_...) not yet recorded for `namespace`,
 * each in its own transaction, under an advisory lock so that several processes starting at once
 * apply each file exactly once. Returns the files applied.
 */
export async function migrate(db: Database, namespace: string, source: MigrationSource): Promise<string[]> {
  const dir = toPath(source);
  const files = (await readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      namespace text NOT NULL,
      version text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (namespace, version))`);
    const done = await tx.query<{ version: string }>("SELECT version FROM schema_migrations WHERE namespace = $1", [namespace]);
    const doneVersions = new Set(done.rows.map((r) => r.version));
    for (const file of files) {
      if (doneVersions.has(file)) continue;
      await tx.exec(await readFile(path.join(dir, file), "utf8"));
      await tx.query("INSERT INTO schema_migrations (namespace, version) VALUES ($1, $2)", [namespace, file]);
      applied.push(file);
    }
  });
  return applied;
}
