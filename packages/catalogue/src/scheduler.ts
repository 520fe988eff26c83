import type { Database } from "@apiplat/storage";
import { runIngestion, type IngestionSource, type IngestRunSummary } from "./ingest.js";

/** Background work (for `background(...)`) running a live source (feeds, an API) at start and then every `intervalMs`; a slow round is never stacked with the next one. */
export function liveIngestionScheduler(options: {
  db: Database;
  source: IngestionSource<any, any>;
  intervalMs: number;
  datasetsDir: string;
  now: () => Date;
  onRun: (summary: IngestRunSummary) => void;
  /** The first round waits for this (the catalogue's first load, which only runs on an empty catalogue). */
  after?: () => Promise<unknown>;
}) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let busy = false;
  let stopped = false;
  const tick = () => {
    if (busy || stopped) return;
    busy = true;
    running = runIngestion(options.db, options.source, { datasetsDir: options.datasetsDir, now: options.now })
      .then(options.onRun)
      .finally(() => {
        busy = false;
      });
  };
  return {
    name: `live ingestion: ${options.source.name}`,
    start() {
      const first = options.after?.() ?? Promise.resolve();
      running = first.then(tick, tick);
      timer = setInterval(tick, options.intervalMs);
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
