import type { Database, Queryable } from "@apiplat/storage";
import { SOURCE_IDS, type QuoteStyle, type RateTable, type SourceId } from "../domain/types.js";

interface RateRow {
  source: SourceId;
  rate_date: string;
  home_currency: string;
  quote_style: QuoteStyle;
  currency: string;
  value: string;
  units: number;
}

interface FetchRun {
  source: SourceId;
  startedAt: Date;
  finishedAt: Date;
  ok: boolean;
  attempts: number;
  tables: number;
  latestDate: string | null;
  error: string | null;
}

interface SourceState {
  source: SourceId;
  latest_date: string | null;
  tables: number;
  last_fetch: { ok: boolean; finished_at: string; attempts: number; error: string | null } | null;
}

const CHUNK_ROWS = 5_000;

/** numeric as text keeps the published digits; dates as text avoid any time-zone conversion. */
const SELECT_RATES = `
  SELECT t.source, t.rate_date::text AS rate_date, t.home_currency, t.quote_style, r.currency, r.value::text AS value, r.units
  FROM currency_tables t JOIN currency_rates r ON r.source = t.source AND r.rate_date = t.rate_date`;

function toTables(rows: RateRow[]): RateTable[] {
  const tables = new Map<string, RateTable>();
  for (const row of rows) {
    const key = `${row.source}/${row.rate_date}`;
    let table = tables.get(key);
    if (!table) {
      table = { source: row.source, date: row.rate_date, home: row.home_currency, quoteStyle: row.quote_style, rates: [] };
      tables.set(key, table);
    }
    table.rates.push({ currency: row.currency, value: row.value, units: Number(row.units) });
  }
  return [...tables.values()];
}

export class RateStore {
  constructor(private readonly db: Database) {}

  /** Upserts the tables (a bank re-publishing a date replaces its rates). Returns how many tables were written. */
  async saveTables(tables: RateTable[], origin: string, storedAt: Date): Promise<number> {
    if (tables.length === 0) return 0;
    await this.db.transaction(async (tx) => {
      for (let i = 0; i < tables.length; i += 1_000) await this.upsertTables(tx, tables.slice(i, i + 1_000), origin, storedAt);
      const rows = tables.flatMap((t) => t.rates.map((r) => [t.source, t.date, r.currency, r.value, r.units] as const));
      for (let i = 0; i < rows.length; i += CHUNK_ROWS) await this.upsertRates(tx, rows.slice(i, i + CHUNK_ROWS));
      await tx.query("UPDATE currency_data_version SET version = version + 1, changed_at = clock_timestamp()");
    });
    return tables.length;
  }

  private async upsertTables(tx: Queryable, tables: RateTable[], origin: string, storedAt: Date): Promise<void> {
    await tx.query(
      `INSERT INTO currency_tables (source, rate_date, home_currency, quote_style, rate_count, origin, stored_at)
       SELECT s, d::date, h, q, n, $6, $7 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) AS x(s, d, h, q, n)
       ON CONFLICT (source, rate_date) DO UPDATE SET home_currency = EXCLUDED.home_currency, quote_style = EXCLUDED.quote_style,
         rate_count = EXCLUDED.rate_count, origin = EXCLUDED.origin, stored_at = EXCLUDED.stored_at`,
      [
        tables.map((t) => t.source),
        tables.map((t) => t.date),
        tables.map((t) => t.home),
        tables.map((t) => t.quoteStyle),
        tables.map((t) => t.rates.length),
        origin,
        storedAt,
      ],
    );
    await tx.query(`DELETE FROM currency_rates r USING unnest($1::text[], $2::text[]) AS x(s, d) WHERE r.source = x.s AND r.rate_date = x.d::date`, [
      tables.map((t) => t.source),
      tables.map((t) => t.date),
    ]);
  }

  private async upsertRates(tx: Queryable, rows: ReadonlyArray<readonly [string, string, string, string, number]>): Promise<void> {
    await tx.query(
      `INSERT INTO currency_rates (source, rate_date, currency, value, units)
       SELECT s, d::date, c, v::numeric, u FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[]) AS x(s, d, c, v, u)`,
      [rows.map((r) => r[0]), rows.map((r) => r[1]), rows.map((r) => r[2]), rows.map((r) => r[3]), rows.map((r) => r[4])],
    );
  }

  async isEmpty(): Promise<boolean> {
    const { rows } = await this.db.query("SELECT 1 FROM currency_tables LIMIT 1");
    return rows.length === 0;
  }

  /** Changes whenever a table is written: part of every cache key and ETag. */
  async version(): Promise<string> {
    const { rows } = await this.db.query<{ version: number; changed_at: Date }>("SELECT version, changed_at FROM currency_data_version");
    return rows[0] ? `${rows[0].version}.${new Date(rows[0].changed_at).getTime()}` : "0";
  }

  /**
   * For each source, its tables from `windowDays` before its latest table on or before `asOf`, up to that one:
   * enough for the selection rule and for rebasing a weekly table through a daily one.
   */
  async tablesNear(asOf: string, windowDays: number): Promise<RateTable[]> {
    const { rows } = await this.db.query<RateRow>(
      `WITH latest AS (SELECT source, max(rate_date) AS d FROM currency_tables WHERE rate_date <= $1::date GROUP BY source)
       ${SELECT_RATES} JOIN latest l ON l.source = t.source
       WHERE t.rate_date BETWEEN l.d - $2::int AND l.d`,
      [asOf, windowDays],
    );
    return toTables(rows);
  }

  async tablesBetween(from: string, to: string): Promise<RateTable[]> {
    const { rows } = await this.db.query<RateRow>(`${SELECT_RATES} WHERE t.rate_date BETWEEN $1::date AND $2::date`, [from, to]);
    return toTables(rows);
  }

  async recordFetch(run: FetchRun): Promise<void> {
    await this.db.query(
      `INSERT INTO currency_fetch_runs (source, started_at, finished_at, ok, attempts, tables, latest_date, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7::date, $8)`,
      [run.source, run.startedAt, run.finishedAt, run.ok, run.attempts, run.tables, run.latestDate, run.error],
    );
  }

  async sourceStates(): Promise<SourceState[]> {
    const stats = await this.db.query<{ source: SourceId; latest_date: string; tables: number }>(
      "SELECT source, max(rate_date)::text AS latest_date, count(*)::int AS tables FROM currency_tables GROUP BY source",
    );
    const runs = await this.db.query<{ source: SourceId; ok: boolean; finished_at: Date; attempts: number; error: string | null }>(
      `SELECT DISTINCT ON (source) source, ok, finished_at, attempts, error FROM currency_fetch_runs ORDER BY source, id DESC`,
    );
    return SOURCE_IDS.map((source) => {
      const stat = stats.rows.find((r) => r.source === source);
      const run = runs.rows.find((r) => r.source === source);
      return {
        source,
        latest_date: stat?.latest_date ?? null,
        tables: stat ? Number(stat.tables) : 0,
        last_fetch: run ? { ok: run.ok, finished_at: new Date(run.finished_at).toISOString(), attempts: Number(run.attempts), error: run.error } : null,
      };
    });
  }
}
