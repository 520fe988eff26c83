/**
 * Merges run in worker threads, never on the event loop: pdf-lib takes about 0.7 s of CPU per 1,000 pages, and a
 * plan may merge 10,000. The threads, the merges waiting for one, the time and the memory of each are bounded.
 */
import { Piscina } from "piscina";
import { RenderError } from "../domain/errors.js";
import type { Plan } from "../domain/limits.js";
import type { MergeOutcome, MergeTask } from "./protocol.js";

interface MergePoolOptions {
  threads: number;
  /** Merges that may wait for a thread; one more is refused as busy. */
  maxQueue: number;
  /** Time for one merge once it has a thread; past it the thread is stopped. */
  timeoutMs: number;
  /** V8 old-generation heap of a merge thread, in MiB; a merge that needs more fails alone. */
  heapMb: number;
}

export class MergePool {
  private readonly pool: Piscina<MergeTask, MergeOutcome>;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  /** A thread may be starting (at first, and after one was stopped): the next merge waits for it off the clock. */
  private cold = true;

  constructor(private readonly options: MergePoolOptions) {
    this.pool = new Piscina<MergeTask, MergeOutcome>({
      filename: new URL("./worker-entry.mjs", import.meta.url).href,
      // Starting a thread (TypeScript loader, pdf-lib) takes about a second: threads stay up once started.
      minThreads: 0,
      maxThreads: options.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      resourceLimits: { maxOldGenerationSizeMb: options.heapMb },
    });
  }

  async merge(inputs: Uint8Array[], plan: Plan): Promise<{ pdf: Uint8Array; pageCount: number }> {
    await this.acquire();
    try {
      return await this.run({ inputs, plan });
    } finally {
      this.release();
    }
  }

  close(): Promise<void> {
    for (const wake of this.waiting.splice(0)) wake();
    return this.pool.destroy();
  }

  /** A thread of our own for the merge: the time limit then counts only the merge, not the wait for a thread. */
  private async acquire(): Promise<void> {
    if (this.running < this.options.threads) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.options.maxQueue) {
      throw new RenderError("busy", `Every merge thread is busy and ${this.waiting.length} merges are waiting; retry shortly.`);
    }
    // release() hands its thread over without decrementing `running`.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private async run(task: MergeTask): Promise<{ pdf: Uint8Array; pageCount: number }> {
    if (this.cold) {
      await this.pool.run(null as never, { name: "warm" });
      this.cold = false;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.options.timeoutMs);
    try {
      const outcome = await this.pool.run(task, { signal: abort.signal });
      if (outcome.ok) return { pdf: outcome.pdf, pageCount: outcome.pageCount };
      throw new RenderError(outcome.failure.kind, outcome.failure.message, outcome.failure.field, outcome.failure.issue);
    } catch (error) {
      if (error instanceof RenderError) throw error;
      if (abort.signal.aborted) {
        this.cold = true;
        throw new RenderError("merge_too_heavy", `The merge did not finish within ${this.options.timeoutMs} ms; merge fewer or smaller files per request.`);
      }
      if ((error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY") {
        this.cold = true;
        throw new RenderError("merge_too_heavy", "The merge needs more memory than one merge may use; merge fewer or smaller files per request.");
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
