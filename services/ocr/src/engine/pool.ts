import { OcrBusyError, OcrTimeoutError } from "../domain/errors.js";

/** One OCR engine instance (a Tesseract worker thread) loaded with one set of languages. */
export interface OcrEngine {
  setLanguages(languages: string): Promise<void>;
  terminate(): Promise<void>;
}

interface EnginePoolOptions<E extends OcrEngine> {
  size: number;
  /** Jobs allowed to wait for a free engine; one more is refused as busy. */
  maxQueue: number;
  createEngine(languages: string): Promise<E>;
  onEngineReplaced?(reason: string): void;
}

interface Slot<E> {
  engine: E | null;
  languages: string | null;
  busy: boolean;
  lastUsed: number;
}

interface Waiter {
  languages: string;
  grant(slot: Slot<never>): void;
}

export interface PoolStats {
  size: number;
  busy: number;
  queued: number;
  replaced: number;
}

/**
 * A fixed number of engines shared by all requests. A job prefers an idle engine already loaded with its languages.
 * A job that overruns its time limit loses its engine: the worker thread is terminated (Tesseract cannot be
 * interrupted mid-page) and a fresh one is started for the next job, so one bad input cannot block the pool.
 */
export class EnginePool<E extends OcrEngine> {
  private readonly slots: Slot<E>[];
  private readonly waiters: Waiter[] = [];
  private replaced = 0;
  private closed = false;

  constructor(private readonly options: EnginePoolOptions<E>) {
    this.slots = Array.from({ length: options.size }, () => ({ engine: null, languages: null, busy: false, lastUsed: 0 }));
  }

  stats(): PoolStats {
    return {
      size: this.slots.length,
      busy: this.slots.filter((slot) => slot.busy).length,
      queued: this.waiters.length,
      replaced: this.replaced,
    };
  }

  /** Starts engines ahead of the first request so that it does not pay for loading. */
  async warm(languages: string): Promise<void> {
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.engine === null && !slot.busy) {
          slot.busy = true;
          try {
            slot.engine = await this.options.createEngine(languages);
            slot.languages = languages;
          } finally {
            this.release(slot);
          }
        }
      }),
    );
  }

  /**
   * Runs `job` on an engine loaded with `languages`. The time limit covers loading languages and the job itself,
   * not the wait for a free engine (bounded by the queue length instead).
   */
  async run<T>(
    languages: string,
    timeoutMs: number,
    job: (engine: E) => Promise<T>,
    options: { retireAfter?: boolean } = {},
  ): Promise<{ result: T; queuedMs: number }> {
    if (this.closed) throw new OcrBusyError("the OCR engine pool is shutting down");
    const waitStarted = Date.now();
    const slot = await this.acquire(languages);
    const queuedMs = Date.now() - waitStarted;
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    const work = (async () => {
      const engine = await this.prepare(slot, languages);
      return job(engine);
    })();
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new OcrTimeoutError(timeoutMs));
      }, timeoutMs);
    });
    try {
      const result = await Promise.race([work, deadline]);
      // A WebAssembly heap never shrinks: after a very large page, a fresh worker gives the memory back.
      if (options.retireAfter) this.discardEngine(slot, "recycled after a large page");
      return { result, queuedMs };
    } catch (error) {
      if (timedOut || !(error instanceof OcrTimeoutError)) this.discardEngine(slot, timedOut ? "timeout" : "error");
      work.catch(() => {});
      throw error;
    } finally {
      clearTimeout(timer);
      this.release(slot);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.grant(null as never);
    await Promise.all(
      this.slots.map(async (slot) => {
        const engine = slot.engine;
        slot.engine = null;
        if (engine) await engine.terminate().catch(() => {});
      }),
    );
  }

  private acquire(languages: string): Promise<Slot<E>> {
    const slot = this.pickIdle(languages);
    if (slot) {
      slot.busy = true;
      return Promise.resolve(slot);
    }
    if (this.waiters.length >= this.options.maxQueue) {
      return Promise.reject(new OcrBusyError(`all ${this.slots.length} OCR engines are busy and ${this.waiters.length} jobs are waiting`));
    }
    return new Promise((resolve, reject) => {
      this.waiters.push({
        languages,
        grant: (granted) => (granted ? resolve(granted as Slot<E>) : reject(new OcrBusyError("the OCR engine pool is shutting down"))),
      });
    });
  }

  private pickIdle(languages: string): Slot<E> | undefined {
    const idle = this.slots.filter((slot) => !slot.busy);
    return (
      idle.find((slot) => slot.languages === languages && slot.engine !== null) ??
      idle.find((slot) => slot.engine === null) ??
      idle.sort((a, b) => a.lastUsed - b.lastUsed)[0]
    );
  }

  private release(slot: Slot<E>): void {
    slot.lastUsed = Date.now();
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter.grant(slot as Slot<never>);
      return;
    }
    slot.busy = false;
  }

  private async prepare(slot: Slot<E>, languages: string): Promise<E> {
    if (slot.engine === null) {
      slot.engine = await this.options.createEngine(languages);
      slot.languages = languages;
    } else if (slot.languages !== languages) {
      slot.languages = null;
      await slot.engine.setLanguages(languages);
      slot.languages = languages;
    }
    return slot.engine;
  }

  private discardEngine(slot: Slot<E>, reason: string): void {
    const engine = slot.engine;
    slot.engine = null;
    slot.languages = null;
    if (engine) {
      this.replaced++;
      this.options.onEngineReplaced?.(reason);
      void engine.terminate().catch(() => {});
    }
  }
}
