import type { Queryable } from "@apiplat/storage";

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface UpsertSpec<Row> {
  table: string;
  /** The natural key: the columns of the table's primary key or unique constraint. */
  key: readonly (keyof Row & string)[];
  /** Every column written, key included. */
  columns: readonly (keyof Row & string)[];
  /**
   * A column that orders versions of a row (a record's line in its file, a fetch time): a stored row is replaced
   * only by one of the same or a later revision. Two records of one file with the same key then settle on the
   * later one on every run, instead of taking turns.
   */
  revision?: keyof Row & string;
  /** "insert-only": a stored row is kept as it is (a partial record must not blank out a fuller one). */
  mode?: "upsert" | "insert-only";
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function checkIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  return name;
}

/**
 * Inserts rows, or updates the stored row with the same natural key when any column differs, in one statement.
 * A row equal to the stored one is left alone, so re-running an ingestion writes nothing and counts it unchanged.
 * Rows repeating a key within the batch keep the last one (the others count as unchanged).
 */
export async function upsertRows<Row extends Record<string, unknown>>(db: Queryable, spec: UpsertSpec<Row>, rows: readonly Row[]): Promise<UpsertCounts> {
  const byKey = new Map<string, Row>();
  for (const row of rows) byKey.set(JSON.stringify(spec.key.map((k) => row[k])), row);
  const unique = [...byKey.values()];
  if (unique.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };

  const table = checkIdentifier(spec.table);
  const columns = spec.columns.map(checkIdentifier);
  const keySet = new Set<string>(spec.key);
  const valueColumns = columns.filter((c) => !keySet.has(c));
  // A row that differs only in its revision is the same row: not rewritten, counted unchanged.
  const compared = valueColumns.filter((c) => c !== spec.revision);
  const params: unknown[] = [];
  const tuples = unique.map((row) => `(${columns.map((c) => `$${params.push(row[c] ?? null)}`).join(", ")})`);
  const changed =
    valueColumns.length && spec.mode !== "insert-only"
      ? `DO UPDATE SET ${valueColumns.map((c) => `${c} = EXCLUDED.${c}`).join(", ")}
       WHERE ${spec.revision ? `EXCLUDED.${checkIdentifier(spec.revision)} >= ${table}.${spec.revision} AND ` : ""}(${compared.map((c) => `${table}.${c}`).join(", ")}) IS DISTINCT FROM (${compared.map((c) => `EXCLUDED.${c}`).join(", ")})`
      : "DO NOTHING";
  const { rows: written } = await db.query<{ inserted: boolean }>(
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${tuples.join(", ")}
     ON CONFLICT (${spec.key.map(checkIdentifier).join(", ")}) ${changed}
     RETURNING (xmax = 0) AS inserted`,
    params,
  );
  const inserted = written.filter((r) => r.inserted).length;
  const updated = written.length - inserted;
  return { inserted, updated, unchanged: rows.length - written.length };
}
