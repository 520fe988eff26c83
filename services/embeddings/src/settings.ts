import { integerSetting, type Env } from "@apiplat/config";

export interface EmbeddingsSettings {
  /** Worker threads running inference; each uses one core. */
  workers: number;
  /** Most texts a worker embeds in one task. */
  maxBatch: number;
  /** How long the first text of a batch waits for others, in milliseconds. */
  batchWaitMs: number;
  /** Most texts waiting or running at once; past it requests get 503 with Retry-After. */
  maxQueuedTexts: number;
  /** Memory for recent vectors, in bytes (0 turns the cache off). */
  cacheBytes: number;
  /** TensorFlow.js backend for USE-lite: wasm (measured faster, see docs/performance/embeddings.md) or cpu. */
  tfjsBackend: "wasm" | "cpu";
  /** sha256 of the multilingual model's onnx/model.onnx, which no document here states. */
  multilingualSha256: string;
}

/** The service's own settings, read once from the environment (bad values stop the start). */
export function readSettings(env: Env): EmbeddingsSettings {
  const backend = env.EMBEDDINGS_TFJS_BACKEND || "wasm";
  if (backend !== "wasm" && backend !== "cpu") throw new Error(`EMBEDDINGS_TFJS_BACKEND must be wasm or cpu, got "${backend}"`);
  const sha = (env.EMBEDDINGS_MULTILINGUAL_SHA256 ?? "").toLowerCase();
  if (sha && !/^[0-9a-f]{64}$/.test(sha)) throw new Error("EMBEDDINGS_MULTILINGUAL_SHA256 must be 64 hex characters");
  return {
    workers: integerSetting(env, "EMBEDDINGS_WORKERS", 1, 1),
    maxBatch: integerSetting(env, "EMBEDDINGS_MAX_BATCH", 32, 1),
    batchWaitMs: integerSetting(env, "EMBEDDINGS_BATCH_WAIT_MS", 2, 0),
    maxQueuedTexts: integerSetting(env, "EMBEDDINGS_MAX_QUEUED_TEXTS", 2_000, 100),
    cacheBytes: integerSetting(env, "EMBEDDINGS_CACHE_MB", 64, 0) * 1024 * 1024,
    tfjsBackend: backend,
    multilingualSha256: sha,
  };
}
