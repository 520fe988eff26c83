import type { Database } from "@apiplat/storage";

export interface UsageKey {
  month: string;
  accountId: string;
  keyId: string;
  service: string;
  endpoint: string;
}

const SEPARATOR = "\u0000";

/**
 * Counts billable requests in memory and writes them to PostgreSQL in one statement per flush.
 * A clean shutdown flushes (close); a crash loses at most one flush interval. A failed flush keeps
 * its counts for the next one.
 */
export class UsageRecorder {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly flushIntervalMs: number,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  start(): void {
    if (this.flushIntervalMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.flushIntervalMs);
    this.timer.unref();
  }

  record(key: UsageKey): void {
    const id = key.month + SEPARATOR + key.accountId + SEPARATOR + key.keyId + SEPARATOR + key.service + SEPARATOR + key.endpoint;
    this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
  }

  /** Requests counted here but not yet written, for one account and service in a month. */
  unflushed(month: string, accountId: string, service: string): number {
    let total = 0;
    for (const [id, count] of this.pending) {
      const [m, account, , s] = id.split(SEPARATOR);
      if (m === month && account === accountId && s === service) total += count;
    }
    return total;
  }

  /** Writes what is pending; concurrent calls queue behind each other. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const keyColumns: string[][] = [[], [], [], [], []];
    const counts: number[] = [];
    for (const [id, count] of batch) {
      id.split(SEPARATOR).forEach((part, i) => keyColumns[i].push(part));
      counts.push(count);
    }
    try {
      await this.db.query(
        `INSERT INTO usage_counts (month, account_id, key_id, service, endpoint, requests)
         SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::bigint[])
         ON CONFLICT (month, account_id, key_id, service, endpoint)
         DO UPDATE SET requests = usage_counts.requests + excluded.requests`,
        [...keyColumns, counts],
      );
    } catch (error) {
      for (const [id, count] of batch) this.pending.set(id, (this.pending.get(id) ?? 0) + count);
      this.onError(error);
    }
  }
}
