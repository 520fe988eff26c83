/**
 * The ingestion framework: a source streams records, turns each into catalogue rows and upserts them in batches by
 * natural key; a record it cannot use is reported and skipped; progress is reported as rows per second; every run
 * is recorded in the service's `ingest_runs` table (see the catalogue README for its DDL).
 */
import { hostname } from "node:os";
import type { Database, Queryable } from "@apiplat/storage";
import { announceCatalogueChange, type CatalogueCoordination } from "./coordination.js";
import { isMalformed, type ReaderItem } from "./readers.js";
import type { UpsertCounts } from "./upsert.js";

/** Where a dataset comes from, as its SOURCE.md states it; shown by GET /sources and in the README. */
export interface DatasetAttribution {
  /** The file (relative to the service's dataset folder) or the live origin (a feed list, an API). */
  file: string;
  title: string;
  upstream: string;
  licence: string;
  /** Where the copy was taken from (repository and commit), when it is a copy. */
  copied_from?: string;
}

export interface IngestContext {
  /** `config.datasetsDir`: the folder that holds `<service>/<file>`. */
  datasetsDir: string;
  /** Read at most this many records (tests and benchmarks ingest a bounded subset). */
  limit?: number;
  now: () => Date;
}

/** Thrown by `toRows` for a record that cannot become a row: reported with its reason and skipped. */
export class MalformedRow extends Error {}

/** A field a row cannot do without: its value, or a MalformedRow "<field> is missing" when it is empty or absent. */
export function requiredField(value: string | null | undefined, field: string): string {
  if (!value) throw new MalformedRow(`${field} is missing`);
  return value;
}

export interface IngestionSource<Record = unknown, Row = unknown> {
  /** Short stable name: `npm run ingest -- <service> --source <name>`, and the `source` column of ingest_runs. */
  name: string;
  attribution: DatasetAttribution;
  /** Only live sources (feeds, APIs) are not part of the automatic first load. */
  live?: boolean;
  /** Streams the records; `db` is there for live sources that keep state (a feed's ETag, a crawl frontier). */
  read(context: IngestContext & { db: Database }): AsyncIterable<ReaderItem<Record>>;
  /** One record (at `line` of its file) -> its rows (possibly none). Throw MalformedRow for a record that cannot be used. */
  toRows(record: Record, context: IngestContext, line: number): Row[];
  upsert(db: Queryable, rows: Row[]): Promise<UpsertCounts>;
  /** Runs after the last batch, in the same database (derived tables, vocabularies). */
  finish?(db: Database): Promise<void>;
}

export interface SkippedRecord {
  line: number;
  reason: string;
}

export interface IngestRunSummary extends UpsertCounts {
  run_id: number;
  source: string;
  status: "succeeded" | "failed";
  rows_read: number;
  rows_skipped: number;
  /** The first skipped records with their reasons (at most MAX_REPORTED_SKIPS). */
  skipped: SkippedRecord[];
  started_at: Date;
  finished_at: Date;
  rows_per_second: number;
  error?: string;
}

export interface ProgressReport {
  source: string;
  rows: number;
  rows_per_second: number;
}

export interface IngestOptions extends IngestContext {
  /** Leave the source's `finish` to a later run (see runIngestions). */
  skipFinish?: boolean;
  /** The runs before this one left their `finish` to it and wrote rows: its finish changes the catalogue (see runIngestions). */
  finishCoversEarlierChanges?: boolean;
  /** Called about once a second while the run lasts (see `terminalProgress`). */
  onProgress?: (report: ProgressReport) => void;
  batchSize?: number;
}

export const MAX_REPORTED_SKIPS = 20;
const DEFAULT_BATCH = 500;
const PROGRESS_INTERVAL_MS = 1_000;
/** This process, as `ingest_runs.runner` names it. */
export const RUNNER = `${hostname()}/${process.pid}`;

function elapsedSeconds(since: number): number {
  return Math.max((performance.now() - since) / 1000, 1e-6);
}

export async function runIngestion<R, Row>(db: Database, source: IngestionSource<R, Row>, options: IngestOptions): Promise<IngestRunSummary> {
  const startedAt = options.now();
  const { rows: runRows } = await db.query<{ id: number }>(
    "INSERT INTO ingest_runs (source, started_at, status, runner) VALUES ($1, $2, 'running', $3) RETURNING id",
    [source.name, startedAt, RUNNER],
  );
  const runId = runRows[0].id;
  const counts = { rows_read: 0, rows_skipped: 0, inserted: 0, updated: 0, unchanged: 0 };
  const skipped: SkippedRecord[] = [];
  const skip = (line: number, reason: string) => {
    counts.rows_skipped += 1;
    if (skipped.length < MAX_REPORTED_SKIPS) skipped.push({ line, reason });
  };
  const clock = performance.now();
  let lastReport = clock;
  let batch: Row[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const written = await db.transaction((tx) => source.upsert(tx, batch));
    counts.inserted += written.inserted;
    counts.updated += written.updated;
    counts.unchanged += written.unchanged;
    batch = [];
  };
  let error: string | undefined;
  try {
    for await (const item of source.read({ ...options, db })) {
      counts.rows_read += 1;
      if (isMalformed(item)) skip(item.line, item.malformed);
      else {
        try {
          batch.push(...source.toRows(item.value, options, item.line));
        } catch (caught) {
          if (!(caught instanceof MalformedRow)) throw caught;
          skip(item.line, caught.message);
        }
      }
      if (batch.length >= (options.batchSize ?? DEFAULT_BATCH)) await flush();
      if (options.onProgress && performance.now() - lastReport >= PROGRESS_INTERVAL_MS) {
        lastReport = performance.now();
        options.onProgress({ source: source.name, rows: counts.rows_read, rows_per_second: counts.rows_read / elapsedSeconds(clock) });
      }
    }
    await flush();
    if (!options.skipFinish) await source.finish?.(db);
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  const finishedAt = options.now();
  const status = error === undefined ? "succeeded" : "failed";
  // A failed run may have written some batches; a finish after earlier runs' rows derives from them.
  const changedCatalogue =
    status === "failed" ||
    counts.inserted + counts.updated > 0 ||
    (!options.skipFinish && source.finish !== undefined && options.finishCoversEarlierChanges === true);
  const rowsPerSecond = counts.rows_read / elapsedSeconds(clock);
  await db.query(
    `UPDATE ingest_runs SET finished_at = $2, status = $3, rows_read = $4, rows_inserted = $5, rows_updated = $6,
       rows_unchanged = $7, rows_skipped = $8, skipped_examples = $9, error = $10, rows_per_second = $11, changed_catalogue = $12
     WHERE id = $1`,
    [
      runId,
      finishedAt,
      status,
      counts.rows_read,
      counts.inserted,
      counts.updated,
      counts.unchanged,
      counts.rows_skipped,
      JSON.stringify(skipped),
      error ?? null,
      Math.round(rowsPerSecond),
      changedCatalogue,
    ],
  );
  await announceCatalogueChange(db);
  options.onProgress?.({ source: source.name, rows: counts.rows_read, rows_per_second: rowsPerSecond });
  return {
    run_id: runId,
    source: source.name,
    status,
    ...counts,
    skipped,
    started_at: startedAt,
    finished_at: finishedAt,
    rows_per_second: Math.round(rowsPerSecond),
    ...(error === undefined ? {} : { error }),
  };
}

/**
 * Closes the runs of `source` still marked running, left by a process that died mid-run: call it holding the source's
 * lock, which every run of the source holds while it runs. Returns how many there were.
 */
export async function closeAbandonedRuns(db: Queryable, source: string, now: Date): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE ingest_runs SET status = 'failed', finished_at = $2, changed_catalogue = true, error = 'abandoned: ' || coalesce(runner, 'its process') || ' stopped before the run finished'
     WHERE source = $1 AND status = 'running'`,
    [source, now],
  );
  if (rowCount > 0) await announceCatalogueChange(db);
  return rowCount;
}

/**
 * One source's run holding its lock across the catalogue's processes (waiting for it while another process runs
 * the source), after closing the runs a dead process left; null when `shouldStop` said so while waiting.
 */
export async function runIngestionExclusively<R, Row>(
  coordination: CatalogueCoordination,
  db: Database,
  source: IngestionSource<R, Row>,
  options: IngestOptions & { shouldStop?: () => boolean },
): Promise<IngestRunSummary | null> {
  const run = await coordination.exclusive(
    source.name,
    async () => {
      await closeAbandonedRuns(db, source.name, options.now());
      return runIngestion(db, source, options);
    },
    options.shouldStop,
  );
  return run.held ? run.value : null;
}

/**
 * Runs sources one after the other (each holding its lock when `coordination` is given). Consecutive sources sharing one `finish` (the same function: they fill the same
 * tables) run it once, after the last of them: refreshing derived tables after every file of a service would cost
 * more than loading the files.
 */
export async function runIngestions(
  db: Database,
  sources: readonly IngestionSource<any, any>[],
  options: IngestOptions & {
    onRun?: (summary: IngestRunSummary) => void;
    shouldStop?: () => boolean;
    coordination?: CatalogueCoordination;
    /** A bound per source name, in place of `limit` (tests and benchmarks load a subset of each file). */
    limits?: Readonly<Record<string, number>>;
  },
): Promise<IngestRunSummary[]> {
  const summaries: IngestRunSummary[] = [];
  let finishOwed = false;
  let groupChanged = false;
  for (const [index, source] of sources.entries()) {
    if (options.shouldStop?.()) break;
    const next = sources[index + 1];
    const deferred = source.finish !== undefined && next?.finish === source.finish && !options.shouldStop?.();
    const limit = options.limits?.[source.name] ?? options.limit;
    const runOptions: IngestOptions & { shouldStop?: () => boolean } = { ...options, limit, skipFinish: deferred, finishCoversEarlierChanges: groupChanged };
    const summary: IngestRunSummary | null = options.coordination
      ? await runIngestionExclusively(options.coordination, db, source, runOptions)
      : await runIngestion(db, source, runOptions);
    if (!summary) break;
    if (deferred) {
      finishOwed ||= summary.status === "succeeded";
      groupChanged ||= summary.inserted + summary.updated > 0;
    } else {
      // The group's last run failed before its finish: the earlier runs still need theirs. The run is marked
      // finished again afterwards, so that a catalogue held in memory (its version is the runs' last finish)
      // reads what the finish wrote.
      if (finishOwed && summary.status === "failed") {
        await source.finish?.(db);
        await db.query("UPDATE ingest_runs SET finished_at = $2, changed_catalogue = true WHERE id = $1", [summary.run_id, options.now()]);
        await announceCatalogueChange(db);
      }
      finishOwed = false;
      groupChanged = false;
    }
    options.onRun?.(summary);
    summaries.push(summary);
  }
  return summaries;
}

/** A progress line rewritten in place on a terminal; one line per report elsewhere (logs, pipes). */
export function terminalProgress(stream: NodeJS.WriteStream = process.stderr): (report: ProgressReport) => void {
  return (report) => {
    const line = `${report.source}: ${report.rows.toLocaleString("en-US")} rows, ${Math.round(report.rows_per_second).toLocaleString("en-US")} rows/s`;
    if (stream.isTTY) stream.write(`\r\x1b[K${line}`);
    else stream.write(`${line}\n`);
  };
}

/**
 * Fresh statistics and visibility after a bulk load, so the planner picks the indexes (its estimates are a guess
 * until the table is analyzed) and counts can use index-only scans. VACUUM cannot run inside a transaction.
 */
export async function settleTables(db: Queryable, tables: readonly string[]): Promise<void> {
  const schema = (db as Partial<Database>).schema;
  for (const table of tables) await db.query(`VACUUM (ANALYZE) ${schema ? `"${schema}".` : ""}${table}`);
}

/** True when none of the given tables holds a row: the catalogue has never been loaded. */
export async function catalogueIsEmpty(db: Queryable, tables: readonly string[]): Promise<boolean> {
  for (const table of tables) {
    const { rows } = await db.query(`SELECT 1 FROM ${table} LIMIT 1`);
    if (rows.length > 0) return false;
  }
  return true;
}
