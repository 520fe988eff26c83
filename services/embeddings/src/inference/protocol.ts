/** What the main thread and the inference workers send each other (structured-clone safe). */
import type { ModelSpec, WeightFile } from "../domain/catalogue.js";

/** What a worker needs to load and run a model. */
export interface WorkerModel {
  id: string;
  runtime: ModelSpec["runtime"];
  maxTokens: number;
  /** Tokens the model reads at once, when fewer than maxTokens (see ModelSpec.windowTokens). */
  windowTokens?: number;
  dimensions: number;
  folder?: string;
  weights?: WeightFile;
}

export interface WorkerSettings {
  modelsDir: string;
  /** TensorFlow.js backend for USE-lite. */
  tfjsBackend: "wasm" | "cpu";
}

export interface EmbedTask {
  model: WorkerModel;
  texts: string[];
}

export interface EmbedResult {
  /** One raw (not normalized) vector per text, in order. */
  vectors: Float32Array[];
  /** Tokens each text has before truncation. */
  tokens: number[];
}

/** A backend loaded in a worker. */
export interface LoadedModel {
  /**
   * Embeds texts, each cut at `maxTokens`. A text's vector must not depend on the other texts: each backend runs
   * only shapes that the text alone determines.
   */
  embed(texts: string[]): Promise<EmbedResult>;
}
