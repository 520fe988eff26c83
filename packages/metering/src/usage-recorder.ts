import type { Database } from "@apiplat/storage";
import { addUsage, type UsageKey } from "./usage-store.js";

const SEPARATOR = "\u0000";
const RETRY_AFTER_FAILURE_MS = 1_000;
/**
 * Writes start at most this often: under load, the requests of this long share one statement and one commit (a write
 * costs the process about as much as a small request), and a quiet process writes at once.
 */
const MIN_WRITE_INTERVAL_MS = 5;

export interface UsageRecorderOptions {
  /**
   * 0 (the default): each request's usage is durable before its answer goes out, written with the others of the same
   * moment in one statement (group commit). N > 0: written behind, every N ms; a crash loses up to N ms of usage.
   */
  writeBehindMs: number;
  /** The longest an answer waits for its usage to be written; past it the answer goes and the count stays queued. */
  commitTimeoutMs: number;
  onError: (error: unknown) => void;
}

/** Requests counted per usage key, and the answers waiting for them to be written. */
interface Batch {
  counts: Map<string, number>;
  waiters: (() => void)[];
  /** Lets the waiters go if the write takes longer than commitTimeoutMs. */
  timer: NodeJS.Timeout | undefined;
}

function release(batch: Batch): void {
  clearTimeout(batch.timer);
  for (const resolve of batch.waiters) resolve();
  batch.waiters = [];
}

/**
 * Billable requests, written to PostgreSQL. By default an answer waits until its request is durable (so a replica killed
 * at any moment has lost nothing it answered), and the requests of one moment share one INSERT and one commit: one write
 * in flight per process, everything recorded meanwhile goes in the next. A failed write keeps its counts for the next one.
 */
export class UsageRecorder {
  private current: Batch | undefined;
  private inFlight: Batch | undefined;
  private writing: Promise<void> | undefined;
  private scheduled = false;
  private lastWriteAt = -Infinity;
  /** After a failed write: until then answers do not wait, and the next write waits for this instant. */
  private failingUntil = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly options: UsageRecorderOptions,
  ) {}

  start(): void {
    if (this.options.writeBehindMs <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.writeBehindMs);
    this.timer.unref();
  }

  /**
   * Counts one billable request. When writing before the answer, `onWritten` is called once it is written (or the
   * commit timeout passed) and record returns true; when writing behind, or while the database fails (the count is
   * kept and written when it answers again), it returns false and never calls it.
   */
  record(key: UsageKey, onWritten?: () => void): boolean {
    const batch = this.batch();
    const id = key.month + SEPARATOR + key.accountId + SEPARATOR + key.keyId + SEPARATOR + key.service + SEPARATOR + key.endpoint;
    batch.counts.set(id, (batch.counts.get(id) ?? 0) + 1);
    if (this.options.writeBehindMs > 0 || performance.now() < this.failingUntil) return false;
    if (onWritten) batch.waiters.push(onWritten);
    this.schedule();
    return true;
  }

  /** Requests counted here but not yet written, for one account and service in a month. */
  unflushed(month: string, accountId: string, service: string): number {
    let total = 0;
    for (const batch of [this.current, this.inFlight]) {
      for (const [id, count] of batch?.counts ?? []) {
        const [m, account, , s] = id.split(SEPARATOR);
        if (m === month && account === accountId && s === service) total += count;
      }
    }
    return total;
  }

  /** Writes everything counted so far; resolves when it is written (or the write failed and its counts are kept). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.current) await this.writeNext();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private batch(): Batch {
    if (this.current) return this.current;
    const batch: Batch = { counts: new Map(), waiters: [], timer: undefined };
    if (this.options.writeBehindMs <= 0) {
      batch.timer = setTimeout(() => release(batch), this.options.commitTimeoutMs);
      batch.timer.unref();
    }
    this.current = batch;
    return batch;
  }

  /**
   * The next write starts when the current one ends, and no sooner than MIN_WRITE_INTERVAL_MS after the one before;
   * the requests recorded until then all join it.
   */
  private schedule(): void {
    if (this.writing || this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      void this.writeNext();
    };
    const waitMs = Math.max(this.lastWriteAt + MIN_WRITE_INTERVAL_MS, this.failingUntil) - performance.now();
    if (waitMs > 0) setTimeout(run, waitMs);
    else setImmediate(run);
  }

  private writeNext(): Promise<void> {
    const batch = this.current;
    if (!batch || this.writing) return this.writing ?? Promise.resolve();
    this.current = undefined;
    this.inFlight = batch;
    this.lastWriteAt = performance.now();
    this.writing = this.write(batch).finally(() => {
      this.writing = undefined;
      this.inFlight = undefined;
      // Before the answer: what was counted meanwhile goes next (after a failure, once failingUntil has passed).
      if (this.current && this.options.writeBehindMs <= 0) this.schedule();
    });
    return this.writing;
  }

  private async write(batch: Batch): Promise<void> {
    try {
      await addUsage(this.db, batch.counts, (id) => id.split(SEPARATOR));
      this.failingUntil = -Infinity;
    } catch (error) {
      this.options.onError(error);
      this.inFlight = undefined;
      // Kept for the next write, a moment later, so that a database that is down is not hammered; meanwhile answers
      // go out without waiting for it.
      this.failingUntil = performance.now() + RETRY_AFTER_FAILURE_MS;
      const next = this.batch();
      for (const [id, count] of batch.counts) next.counts.set(id, (next.counts.get(id) ?? 0) + count);
    } finally {
      release(batch);
    }
  }
}
