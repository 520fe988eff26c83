/** The worker threads that run inference, so that no request's embedding blocks the event loop. */
import { Piscina } from "piscina";
import type { EmbedResult, EmbedTask, WorkerModel, WorkerSettings } from "./protocol.js";

export interface InferencePool {
  run(task: EmbedTask): Promise<EmbedResult>;
  /** Loads a model in every thread, so that the first request does not pay for it. */
  warm(model: WorkerModel): Promise<void>;
  threads(): number;
  destroy(): Promise<void>;
}

export function createInferencePool(threads: number, settings: WorkerSettings): InferencePool {
  const pool = new Piscina<EmbedTask, EmbedResult>({
    filename: new URL("./worker-entry.mjs", import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData: settings,
  });
  return {
    run: (task) => pool.run(task),
    async warm(model) {
      // Each thread takes one task at a time, so as many warm-up tasks as threads reach every thread.
      await Promise.all(Array.from({ length: threads }, () => pool.run({ model, texts: ["warm up"] })));
    },
    threads: () => pool.threads.length,
    destroy: () => pool.destroy(),
  };
}
