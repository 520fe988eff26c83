/** What the routes call: picks the model a request names and embeds its texts through the engine. */
import { ApiError, errors } from "@apiplat/service-kit";
import { findModel } from "../domain/catalogue.js";
import { normalize as toUnitLength } from "../domain/vectors.js";
import { inputWarnings, type InputWarning } from "../domain/warnings.js";
import type { EmbeddingEngine } from "./engine.js";
import type { WorkerModel } from "./protocol.js";
import type { ModelRegistry, RegisteredModel } from "./registry.js";

interface Embedded {
  model: RegisteredModel;
  vectors: Float32Array[];
  tokens: number[];
  truncated: boolean[];
  /** Tokens embedded, after truncation. */
  totalTokens: number;
  /** Texts cut at the limit, or not in the model's language. */
  warnings: InputWarning[];
}

export class Embedder {
  constructor(
    readonly registry: ModelRegistry,
    private readonly engine: EmbeddingEngine,
  ) {}

  /** The model a request names (or the default), installed, or the error that says why not. */
  resolve(name: string | undefined, options: { multilingual?: boolean } = {}): RegisteredModel {
    const model = name === undefined ? this.defaultFor(options.multilingual ?? false) : this.named(name);
    if (options.multilingual && !model.spec.multilingual) {
      const names = this.registry.models.filter((m) => m.spec.multilingual).map((m) => m.spec.id);
      throw errors.validation("model", `must be a multilingual model (${names.join(", ")}) on this endpoint`);
    }
    if (!model.installed) {
      // What is missing and how to install it goes to the operator (logged at start-up), never to a subscriber.
      const available = this.registry.models.filter((m) => m.installed).map((m) => m.spec.id);
      throw new ApiError(
        503,
        "MODEL_UNAVAILABLE",
        `The model ${model.spec.id} is not available on this deployment.` +
          (available.length > 0 ? ` Models available here: ${available.join(", ")} (see GET /models).` : ""),
        [{ field: "model", issue: `${model.spec.id} is not available on this deployment` }],
      );
    }
    return model;
  }

  /** `fields` name each text in warnings (input[0], text_1, documents[3]...). */
  async embed(model: RegisteredModel, texts: string[], normalize: boolean, fields: readonly string[]): Promise<Embedded> {
    const results = await this.engine.embed(workerModel(model), texts);
    const limit = model.spec.maxTokens;
    const tokens = results.map((r) => r.tokens);
    const multilingual = this.registry.models.find((m) => m.spec.multilingual);
    return {
      model,
      vectors: results.map((r) => (normalize ? toUnitLength(r.vector) : r.vector)),
      tokens,
      truncated: results.map((r) => r.tokens > limit),
      totalTokens: results.reduce((sum, r) => sum + Math.min(r.tokens, limit), 0),
      warnings: inputWarnings(texts, fields, tokens, {
        model: { id: model.spec.id, maxTokens: limit, languages: model.spec.languages },
        multilingual: multilingual ? { id: multilingual.spec.id, installed: multilingual.installed } : null,
      }),
    };
  }

  private named(name: string): RegisteredModel {
    const spec = findModel(
      this.registry.models.map((m) => m.spec),
      name,
    );
    if (!spec) {
      const known = this.registry.models.map((m) => m.spec.id).join(", ");
      throw errors.validation("model", `is not a model this service knows; use one of ${known} (GET /models)`);
    }
    return this.registry.get(spec.id)!;
  }

  private defaultFor(multilingual: boolean): RegisteredModel {
    if (multilingual) return this.registry.models.find((m) => m.spec.multilingual)!;
    const best = this.registry.defaultModel();
    if (!best) throw errors.unavailable("No embedding model is installed on this server; GET /models says what each one needs.");
    return best;
  }
}

/** What a worker needs to know of a registered model. */
export function workerModel(model: RegisteredModel): WorkerModel {
  const { spec } = model;
  return {
    id: spec.id,
    runtime: spec.runtime,
    maxTokens: spec.maxTokens,
    windowTokens: spec.windowTokens,
    dimensions: spec.dimensions,
    folder: spec.folder,
    weights: model.weights,
  };
}
