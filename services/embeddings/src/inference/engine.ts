/**
 * Embeds texts for every caller: cache first, then micro-batches. Texts that miss the cache wait a few milliseconds
 * for others to the same model, then go to a worker as one task. The number of texts waiting or running is bounded;
 * past it a request is refused at once with 503 and Retry-After instead of queueing without end.
 */
import { ApiError } from "@apiplat/service-kit";
import type { EmbedResult, WorkerModel } from "./protocol.js";
import { VectorCache, type CachedVector } from "./vector-cache.js";

interface EngineOptions {
  run(task: { model: WorkerModel; texts: string[] }): Promise<EmbedResult>;
  cache: VectorCache;
  /** Most texts sent to a worker in one task. */
  maxBatch: number;
  /** How long the first text of a batch waits for others. */
  batchWaitMs: number;
  /** Most texts waiting or running at once. */
  maxQueuedTexts: number;
  /** Tasks sent to the workers at once (the number of worker threads): later texts gather into the next batch. */
  concurrency: number;
}

interface Waiting {
  key: string;
  text: string;
  resolve(value: CachedVector): void;
  reject(error: unknown): void;
}

interface ModelQueue {
  model: WorkerModel;
  waiting: Waiting[];
  timer?: NodeJS.Timeout;
}

export class EmbeddingEngine {
  private readonly queues = new Map<string, ModelQueue>();
  /** Texts being embedded right now, so that concurrent requests for the same text share one run. */
  private readonly inFlight = new Map<string, Promise<CachedVector>>();
  private queued = 0;
  private running = 0;
  /** Texts answered from the cache or from a run already under way, for /metrics. */
  sharedTotal = 0;
  /** Texts the model embedded, for /metrics. */
  computedTotal = 0;
  /** Seconds per text, smoothed: used to tell a refused caller when to come back. */
  private secondsPerText = 0.01;

  constructor(private readonly options: EngineOptions) {}

  /** Raw vectors and token counts, in input order. */
  async embed(model: WorkerModel, texts: readonly string[]): Promise<CachedVector[]> {
    const results: (CachedVector | Promise<CachedVector>)[] = [];
    const fresh: Waiting[] = [];
    const freshByKey = new Map<string, Promise<CachedVector>>();
    for (const text of texts) {
      const key = VectorCache.key(model.id, text);
      const known = this.options.cache.get(key) ?? this.inFlight.get(key) ?? freshByKey.get(key);
      if (known) {
        this.sharedTotal++;
        results.push(known);
        continue;
      }
      const promise = new Promise<CachedVector>((resolve, reject) => fresh.push({ key, text, resolve, reject }));
      freshByKey.set(key, promise);
      results.push(promise);
    }
    if (fresh.length > 0) this.admit(model, fresh, freshByKey);
    return Promise.all(results);
  }

  /** Texts waiting or running. */
  get load(): number {
    return this.queued;
  }

  private admit(model: WorkerModel, fresh: Waiting[], promises: Map<string, Promise<CachedVector>>): void {
    if (this.queued + fresh.length > this.options.maxQueuedTexts) {
      const retryAfter = Math.max(1, Math.ceil(this.queued * this.secondsPerText));
      throw new ApiError(
        503,
        "UNAVAILABLE",
        `The embedding queue is full (${this.queued} texts waiting, at most ${this.options.maxQueuedTexts}); retry after ${retryAfter} second(s).`,
        undefined,
        { "retry-after": String(retryAfter) },
      );
    }
    this.queued += fresh.length;
    for (const [key, promise] of promises) {
      this.inFlight.set(key, promise);
      // Settled either way: no unhandled rejection when no caller awaits this shared promise any more.
      promise.then(
        () => this.inFlight.delete(key),
        () => this.inFlight.delete(key),
      );
    }
    let queue = this.queues.get(model.id);
    if (!queue) this.queues.set(model.id, (queue = { model, waiting: [] }));
    queue.waiting.push(...fresh);
    this.schedule(queue);
  }

  /** A full batch goes as soon as a worker is free; a partial one after the short wait. */
  private schedule(queue: ModelQueue): void {
    while (this.running < this.options.concurrency && queue.waiting.length >= this.options.maxBatch) this.dispatch(queue);
    if (queue.waiting.length > 0 && !queue.timer) {
      queue.timer = setTimeout(() => {
        queue.timer = undefined;
        if (this.running < this.options.concurrency) this.dispatch(queue);
      }, this.options.batchWaitMs);
    }
  }

  /** The next model with texts waiting, once a worker is free again. */
  private next(): void {
    for (const queue of this.queues.values()) {
      if (this.running >= this.options.concurrency) return;
      if (queue.waiting.length > 0 && !queue.timer) this.dispatch(queue);
    }
  }

  private dispatch(queue: ModelQueue): void {
    clearTimeout(queue.timer);
    queue.timer = undefined;
    const batch = queue.waiting.splice(0, this.options.maxBatch);
    if (batch.length === 0) return;
    this.running++;
    const started = performance.now();
    this.options
      .run({ model: queue.model, texts: batch.map((w) => w.text) })
      .then(
        (result) => {
          this.computedTotal += batch.length;
          const perText = (performance.now() - started) / 1000 / batch.length;
          this.secondsPerText = 0.8 * this.secondsPerText + 0.2 * perText;
          batch.forEach((waiting, i) => {
            const value = { vector: result.vectors[i], tokens: result.tokens[i] };
            this.options.cache.set(waiting.key, value);
            waiting.resolve(value);
          });
        },
        (error) => batch.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => {
        this.queued -= batch.length;
        this.running--;
        this.next();
      });
  }

  /** Fails whatever still waits (at shutdown). */
  close(): void {
    for (const queue of this.queues.values()) {
      clearTimeout(queue.timer);
      const waiting = queue.waiting.splice(0);
      this.queued -= waiting.length;
      for (const w of waiting) w.reject(new ApiError(503, "UNAVAILABLE", "The service is shutting down; retry shortly."));
    }
  }
}
