interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Writes items in batches that form by themselves under load: an item arriving while `maxInFlight`
 * writes are already running waits for the next one and goes with everything else that waited.
 * Alone, an item is written at once, so a quiet service pays no added latency. One statement per batch
 * saves a round trip and a commit per item. When a batch fails, its items are retried one by one so
 * that one bad item (its inbox deleted meanwhile) fails alone.
 */
export class BatchWriter<T, R> {
  private waiting: Pending<T, R>[] = [];
  private inFlight = 0;

  constructor(
    /** Writes the batch; returns one result per item, in order. */
    private readonly writeBatch: (items: T[]) => Promise<R[]>,
    private readonly maxInFlight: number,
    private readonly maxBatch: number,
  ) {}

  write(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.inFlight < this.maxInFlight) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.waiting.length === 0) return;
    const batch = this.waiting.splice(0, this.maxBatch);
    this.inFlight++;
    try {
      await this.store(batch);
    } finally {
      this.inFlight--;
      if (this.waiting.length > 0) void this.flush();
    }
  }

  private async store(batch: Pending<T, R>[]): Promise<void> {
    try {
      const results = await this.writeBatch(batch.map((p) => p.item));
      batch.forEach((pending, i) => pending.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      await Promise.all(batch.map((pending) => this.store([pending])));
    }
  }
}
