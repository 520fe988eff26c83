import type { Database, Queryable } from "@apiplat/storage";
import type { CatalogueCoordination } from "./coordination.js";
import { closeAbandonedRuns, runIngestion, type IngestionSource, type IngestRunSummary } from "./ingest.js";

/** How often each process asks whether a live round is due, at most: also how soon a dead round's runner is replaced. */
export const LIVE_CHECK_MS = 5_000;

/**
 * Background work (for `background(...)`) running a live source (feeds, an API) every `intervalMs` across all the
 * catalogue's processes: every process checks every min(intervalMs, LIVE_CHECK_MS) and, holding the source's lock,
 * runs a round when none started within `intervalMs` (the last one in `ingest_runs`, whichever process ran it) or when
 * the last one was left running by a process that died. So N replicas make one round per interval, a restart does not
 * make an extra one, and a round whose process died is run again by another within LIVE_CHECK_MS of its lock being
 * released. A slow round is never stacked with the next one.
 */
export function liveIngestionScheduler(options: {
  db: Database;
  source: IngestionSource<any, any>;
  intervalMs: number;
  datasetsDir: string;
  now: () => Date;
  coordination: CatalogueCoordination;
  onRun: (summary: IngestRunSummary) => void;
  /** The first check waits for this (the catalogue's first load, which only runs on an empty catalogue). */
  after?: () => Promise<unknown>;
}) {
  const { db, source, now } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let stopped = false;

  const roundIfDue = async () => {
    const round = await options.coordination.tryExclusive(source.name, async () => {
      const abandoned = await closeAbandonedRuns(db, source.name, now());
      if (abandoned === 0 && !(await isDue(db, source.name, now(), options.intervalMs))) return null;
      return runIngestion(db, source, { datasetsDir: options.datasetsDir, now });
    });
    if (round.held && round.value) options.onRun(round.value);
  };
  const tick = () => {
    if (busy || stopped) return;
    busy = true;
    running = roundIfDue()
      .catch(() => {}) // the database is away: the next check tries again
      .finally(() => {
        busy = false;
      });
  };
  return {
    name: `live ingestion: ${source.name}`,
    start() {
      const first = options.after?.() ?? Promise.resolve();
      running = first.then(tick, tick);
      timer = setInterval(tick, Math.min(options.intervalMs, LIVE_CHECK_MS));
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      while (busy) await running;
    },
  };
}

/** No round of `source` started within the last `intervalMs`. */
async function isDue(db: Queryable, source: string, now: Date, intervalMs: number): Promise<boolean> {
  const { rows } = await db.query<{ started_at: Date }>("SELECT started_at FROM ingest_runs WHERE source = $1 ORDER BY started_at DESC LIMIT 1", [source]);
  return rows.length === 0 || now.getTime() - rows[0].started_at.getTime() >= intervalMs;
}
