/**
 * Keeps a process's copies of the catalogue (its answer cache) no older than the last finished ingestion run, whichever
 * process ran it. The version (`ingest_runs`: how many runs, the last finish) is read again when another process
 * announces a change (NOTIFY, see coordination.ts: milliseconds) and every `pollMs` in any case (the safety net for a
 * lost notice or a lost session). `current()` says whether the version was read within `staleAfterMs`: past that, the
 * process cannot know what changed, and what it keeps must not be served.
 */
import type { Queryable } from "@apiplat/storage";
import type { CatalogueCoordination } from "./coordination.js";
import { VERSION_SQL } from "./memory-catalogue.js";

export interface CatalogueVersionWatch {
  work: { name: string; start(): void; stop(): Promise<void> };
  /** The version was read within `staleAfterMs`. */
  current(): boolean;
}

export function watchCatalogueVersion(options: {
  db: Queryable;
  coordination: CatalogueCoordination;
  pollMs: number;
  staleAfterMs: number;
  /** The version changed since it was last read. */
  onChange: () => void;
}): CatalogueVersionWatch {
  let version: string | undefined;
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  const readVersion = async () => {
    const { rows } = await options.db.query<{ version: string }>(`SELECT ${VERSION_SQL} AS version`);
    readAt = performance.now();
    if (version !== undefined && rows[0].version !== version) options.onChange();
    version = rows[0].version;
  };
  // One read at a time; a notice during a read makes one more read after it.
  const check = (): void => {
    if (reading) {
      again = true;
      return;
    }
    reading = readVersion()
      .catch(() => {}) // unreadable: current() turns false after staleAfterMs
      .finally(() => {
        reading = null;
        if (again) {
          again = false;
          check();
        }
      });
  };

  return {
    work: {
      name: "catalogue version watch",
      start() {
        options.coordination.onChange(check);
        check();
        timer = setInterval(check, options.pollMs);
        timer.unref();
      },
      async stop() {
        clearInterval(timer);
        await reading;
      },
    },
    current: () => performance.now() - readAt <= options.staleAfterMs,
  };
}
