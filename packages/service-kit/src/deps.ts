import type { PlatformConfig } from "@apiplat/config";
import type { Database, KeyValueStore } from "@apiplat/storage";

/** What every service is built from; main.ts wires real ones, tests their own. */
export interface PlatformDeps {
  config: PlatformConfig;
  db: Database;
  kv: KeyValueStore;
  /** The clock. */
  now: () => Date;
  /** Where log lines go (standard output when unset); tests read them here. */
  logStream?: { write(line: string): void };
}
