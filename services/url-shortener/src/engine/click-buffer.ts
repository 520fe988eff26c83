/** What the redirect path knows about a click; enrichment happens later, off the response path. */
export interface RawClick {
  linkId: number;
  /** Epoch milliseconds: a number, not a Date, keeps a buffered click small (it outlives young collections). */
  at: number;
  ip: string;
  userAgent: string;
  referer: string | undefined;
  /** True when the link's click counter was already incremented at redirect time (click-limited links). */
  counted: boolean;
}

interface ClickBufferOptions {
  /** Writes one batch; must be all-or-nothing (a transaction) so a failed batch can be retried whole. */
  write: (batch: RawClick[]) => Promise<void>;
  batchSize: number;
  /** Hard cap on clicks held in memory; clicks beyond it (storage down for long) are dropped and counted. */
  maxBuffered: number;
  onError?: (error: unknown, pending: number) => void;
  /** Called for every click dropped because the buffer is full, with the running total. */
  onDrop?: (droppedTotal: number) => void;
}

/** Collects clicks in memory and writes them in batches, on a timer, when a batch fills, and on close. */
export class ClickBuffer {
  private pending: RawClick[] = [];
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  droppedTotal = 0;
  writtenTotal = 0;

  constructor(private readonly options: ClickBufferOptions) {}

  get size(): number {
    return this.pending.length;
  }

  push(click: RawClick): void {
    if (this.pending.length >= this.options.maxBuffered) {
      this.droppedTotal++;
      this.options.onDrop?.(this.droppedTotal);
      return;
    }
    this.pending.push(click);
    if (this.pending.length >= this.options.batchSize && !this.flushing) void this.flush();
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Writes everything buffered so far; resolves when written or when a write failed (the batch stays buffered). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    this.flushing = this.drain();
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, this.options.batchSize);
      try {
        await this.options.write(batch);
        this.writtenTotal += batch.length;
      } catch (error) {
        this.pending = batch.concat(this.pending);
        this.options.onError?.(error, this.pending.length);
        return;
      }
    }
  }
}
