/** The engine's batching, cache and bounds, with a stand-in for the worker pool that records what it is sent. */
import { describe, expect, it } from "vitest";
import { EmbeddingEngine } from "../src/inference/engine.js";
import type { EmbedResult, WorkerModel } from "../src/inference/protocol.js";
import { VectorCache } from "../src/inference/vector-cache.js";

const model: WorkerModel = { id: "m", runtime: "tfjs-use", maxTokens: 512, dimensions: 2 };

function recordingEngine(options: { maxQueuedTexts?: number; cacheBytes?: number } = {}) {
  const tasks: string[][] = [];
  let release: () => void = () => {};
  let gate = new Promise<void>((resolve) => (release = resolve));
  const engine = new EmbeddingEngine({
    async run(task): Promise<EmbedResult> {
      tasks.push(task.texts);
      await gate;
      return { vectors: task.texts.map((t) => new Float32Array([t.length, 1])), tokens: task.texts.map((t) => t.length) };
    },
    cache: new VectorCache(options.cacheBytes ?? 1024 * 1024),
    maxBatch: 4,
    batchWaitMs: 5,
    maxQueuedTexts: options.maxQueuedTexts ?? 100,
    concurrency: 1,
  });
  const open = () => {
    release();
    gate = new Promise<void>((resolve) => (release = resolve));
  };
  return { engine, tasks, open };
}

describe("EmbeddingEngine", () => {
  it("gathers texts from concurrent callers into batches of at most maxBatch, one task at a time per worker", async () => {
    const { engine, tasks, open } = recordingEngine();
    const calls = ["a", "bb", "ccc", "dddd", "eeeee", "ffffff"].map((t) => engine.embed(model, [t]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tasks).toEqual([["a", "bb", "ccc", "dddd"]]);
    open();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tasks).toEqual([
      ["a", "bb", "ccc", "dddd"],
      ["eeeee", "ffffff"],
    ]);
    open();
    const results = await Promise.all(calls);
    expect(results.map((r) => r[0].tokens)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("embeds a text once while it is cached or already running", async () => {
    const { engine, tasks, open } = recordingEngine();
    const first = engine.embed(model, ["same", "same"]);
    const second = engine.embed(model, ["same"]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    open();
    await Promise.all([first, second]);
    await engine.embed(model, ["same"]);
    expect(tasks).toEqual([["same"]]);
  });

  it("refuses texts beyond the queue bound with 503 and Retry-After, admitting nothing of that request", async () => {
    const { engine, open } = recordingEngine({ maxQueuedTexts: 5, cacheBytes: 0 });
    const admitted = engine.embed(model, ["1", "2", "3", "4"]);
    await expect(engine.embed(model, ["5", "6"])).rejects.toMatchObject({ statusCode: 503, code: "UNAVAILABLE", headers: { "retry-after": "1" } });
    expect(engine.load).toBe(4);
    const fits = engine.embed(model, ["5"]);
    open();
    await new Promise((resolve) => setTimeout(resolve, 20));
    open();
    await Promise.all([admitted, fits]);
    expect(engine.load).toBe(0);
  });
});
