import { randomUUID } from "node:crypto";
import type { Database, KeyValueStore, UsageEntry } from "@apiplat/storage";
import { applyUsageBatch, forgetOldBatches, type UsageKey } from "./usage-store.js";

const LOG = "usage:log";
const TAKEN = "usage:taken:";
const LEDGER = "usage:ledger";
/**
 * A batch still taken this long after it was taken (a drain takes milliseconds): its taker died, or lost PostgreSQL,
 * and any process applies it. Applying it twice at once is safe: the batch id makes the second a no-op.
 */
const ORPHAN_AFTER_MS = 5_000;
const BATCH_IDS_KEPT_DAYS = 2;
const FORGET_BATCHES_EVERY_MS = 3_600_000;
const SEPARATOR = "\u0000";

/** Where a paid request is counted, in the same Redis script that admits it. */
export function usageEntry(key: UsageKey): UsageEntry {
  return { log: LOG, field: key.month + SEPARATOR + key.accountId + SEPARATOR + key.keyId + SEPARATOR + key.service + SEPARATOR + key.endpoint };
}

function countsOf(fields: Record<string, string>): { key: UsageKey; requests: number }[] {
  return Object.entries(fields)
    .map(([field, value]) => {
      const [month, accountId, keyId, service, endpoint] = field.split(SEPARATOR);
      return { key: { month, accountId, keyId, service, endpoint }, requests: Number(value) };
    })
    .filter((count) => count.requests !== 0);
}

/**
 * Moves paid plans' usage from the shared store to PostgreSQL. Each admitted request is counted in the store's usage
 * log by the script that admits it, before the request runs: a service process killed at any moment has lost
 * nothing, since its requests are in Redis. Every process drains every `intervalMs`: one takes the whole log at once
 * (a rename: the others find nothing), applies it in one transaction recorded under the batch's id, then lets it go. A
 * taker that dies before letting go leaves its batch in a ledger, where any process finds it after ORPHAN_AFTER_MS and
 * applies it, once (the id). A drain costs two Redis round trips when there is nothing to move. What Redis itself loses before a drain (a restart without persistence) is lost: at most
 * one interval of paid usage. Hard limits (BASIC) are counted in PostgreSQL at admission instead.
 */
export class UsageLog {
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> = Promise.resolve();
  private forgotAt = 0;

  constructor(
    private readonly db: Database,
    /** The stores to drain: the shared one, and this process's own while the shared one fails. */
    private readonly stores: () => KeyValueStore[],
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.intervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** Drains every store now; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.draining = this.draining.then(() => this.drainAll());
    return this.draining;
  }

  /** Drains one store (a retired one), then leaves it. */
  drain(store: KeyValueStore): Promise<void> {
    this.draining = this.draining.then(() => this.drainStore(store));
    return this.draining;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async drainAll(): Promise<void> {
    for (const store of this.stores()) await this.drainStore(store);
    if (Date.now() - this.forgotAt > FORGET_BATCHES_EVERY_MS) {
      this.forgotAt = Date.now();
      await forgetOldBatches(this.db, BATCH_IDS_KEPT_DAYS).catch(this.onError);
    }
  }

  private async drainStore(store: KeyValueStore): Promise<void> {
    try {
      const now = Date.now();
      const id = `${now}-${randomUUID()}`;
      const fields = await store.takeHash(LOG, TAKEN + id, LEDGER, now);
      if (fields) await this.apply(store, TAKEN + id, fields);
      for (const orphan of await store.takenBefore(LEDGER, now - ORPHAN_AFTER_MS)) await this.apply(store, orphan.key, orphan.fields);
    } catch (error) {
      // The batch stays taken in the ledger: this process or another applies it later.
      this.onError(error);
    }
  }

  private async apply(store: KeyValueStore, key: string, fields: Record<string, string>): Promise<void> {
    await applyUsageBatch(this.db, key.slice(TAKEN.length), countsOf(fields));
    await store.releaseTaken(LEDGER, key);
  }
}
