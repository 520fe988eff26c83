import { existsSync } from "node:fs";
import path from "node:path";
import { ApiError } from "@apiplat/errors";

/** The q8 ONNX files transformers.js loads for a seq2seq summarizer (t5-small, distilbart-cnn). */
const SEQ2SEQ_WEIGHT_FILES = ["onnx/encoder_model_quantized.onnx", "onnx/decoder_model_merged_quantized.onnx"];

export interface AbstractiveModel {
  name: string;
  /** Weight files absent from the models folder (empty when installed). */
  missing: string[];
}

/** Which weight files of the model are on disk; read once at start-up (the image installs them at build time). */
export function locateAbstractiveModel(modelsDir: string, name: string): AbstractiveModel {
  return { name, missing: SEQ2SEQ_WEIGHT_FILES.filter((file) => !existsSync(path.join(modelsDir, name, file))) };
}

/** What the operator must do to serve `mode: abstractive` (logged at start-up; never part of an answer). */
export function abstractiveSetup(model: AbstractiveModel): string {
  const what =
    model.missing.length > 0
      ? `The abstractive model ${model.name} is not installed: ${model.missing.join(" and ")} are missing.`
      : `The abstractive model ${model.name} is installed, but this build has no transformers.js runtime to run it.`;
  return (
    `${what} Install the ONNX weights of ${model.name} (${SEQ2SEQ_WEIGHT_FILES.join(", ")}) under MODELS_DIR/${model.name}/ ` +
    "(the production image downloads them at build time) and the @huggingface/transformers runtime, then restart."
  );
}

/**
 * `mode: abstractive` cannot be served here: either the weights are absent, or (weights present) this build carries
 * no ONNX runtime to run them. Both are a 503 that names the model, never an extractive summary labelled abstractive;
 * the subscriber is told no paths or settings (abstractiveSetup says them to the operator).
 */
export function abstractiveUnavailable(model: AbstractiveModel): ApiError {
  return new ApiError(503, "MODEL_UNAVAILABLE", `The abstractive model ${model.name} is not available on this deployment; send mode extractive.`, [
    { field: "mode", issue: `abstractive needs the ${model.name} model, which this deployment does not have` },
  ]);
}
