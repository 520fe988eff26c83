import { defineService, errors, exposeMetric } from "@apiplat/service-kit";
import { CATALOGUE, type ModelSpec } from "./domain/catalogue.js";
import { Embedder, workerModel } from "./inference/embedder.js";
import { EmbeddingEngine } from "./inference/engine.js";
import { createInferencePool, type InferencePool } from "./inference/pool.js";
import { loadRegistry } from "./inference/registry.js";
import { VectorCache } from "./inference/vector-cache.js";
import { embedRoutes } from "./routes/embed.js";
import { modelRoutes } from "./routes/models.js";
import { openAiRoutes } from "./routes/openai.js";
import { similarityRoutes } from "./routes/similarity.js";
import { readSettings, type EmbeddingsSettings } from "./settings.js";

export interface EmbeddingsInject {
  /** The models known, instead of the built-in catalogue (tests add a tiny ONNX model of their own). */
  catalogue: readonly ModelSpec[];
}

/** The catalogue with the operator's sha256 for the multilingual weights filled in. */
function withMultilingualSha(catalogue: readonly ModelSpec[], sha256: string): ModelSpec[] {
  return catalogue.map((spec) => (spec.multilingual && sha256 ? { ...spec, weights: spec.weights.map((w) => (w.sha256 ? w : { ...w, sha256 })) } : spec));
}

export default defineService<EmbeddingsSettings, EmbeddingsInject>({
  name: "embeddings",
  description: "Sentence embeddings, cosine similarity and reranking, offline; OpenAI- and TEI-compatible shapes.",
  settings: readSettings,
  // 100 texts of 10,000 characters each, in any script, with room for JSON escapes.
  bodyLimit: 4 * 1024 * 1024,
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, inject, background, readiness }) {
    const catalogue = withMultilingualSha(inject.catalogue ?? CATALOGUE, settings.multilingualSha256);
    const registry = await loadRegistry(catalogue, platform.config.modelsDir);
    for (const { spec, installed, missing } of registry.models) {
      if (!installed) app.log.warn({ model: spec.id, missing, install: spec.install }, "embedding model not installed: requests for it answer 503");
    }
    // The worker threads exist between the background work's start and stop.
    let pool: InferencePool | undefined;
    const cache = new VectorCache(settings.cacheBytes);
    const engine = new EmbeddingEngine({
      run: async (task) => {
        if (!pool) throw errors.unavailable("The inference workers are not running; retry shortly.");
        return pool.run(task);
      },
      cache,
      maxBatch: settings.maxBatch,
      batchWaitMs: settings.batchWaitMs,
      maxQueuedTexts: settings.maxQueuedTexts,
      concurrency: settings.workers,
    });
    const embedder = new Embedder(registry, engine);
    let warmed = false;
    background({
      name: "inference workers",
      async start() {
        pool = createInferencePool(settings.workers, { modelsDir: platform.config.modelsDir, tfjsBackend: settings.tfjsBackend });
        const fallback = registry.defaultModel();
        if (fallback) await pool.warm(workerModel(fallback));
        warmed = true;
      },
      async stop() {
        engine.close();
        await pool?.destroy();
        pool = undefined;
      },
    });
    readiness("inference", async () => warmed && (pool?.threads() ?? 0) > 0);
    exposeMetric(app, { name: "embeddings_queued_texts", help: "Texts waiting for or in a worker", type: "gauge", read: () => engine.load });
    exposeMetric(app, { name: "embeddings_cached_vectors", help: "Vectors in the in-memory cache", type: "gauge", read: () => cache.entries });
    exposeMetric(app, { name: "embeddings_texts_computed_total", help: "Texts the models embedded", type: "counter", read: () => engine.computedTotal });
    exposeMetric(app, {
      name: "embeddings_texts_shared_total",
      help: "Texts answered from the cache or a run already under way",
      type: "counter",
      read: () => engine.sharedTotal,
    });
    await app.register(modelRoutes, { registry });
    await app.register(embedRoutes, { embedder });
    await app.register(similarityRoutes, { embedder });
    await app.register(openAiRoutes, { embedder });
  },
});
