import { existsSync } from "node:fs";
import path from "node:path";
import { ApiError } from "@apiplat/errors";

/** The q8 ONNX files transformers.js loads for a seq2seq summarizer (t5-small, distilbart-cnn). */
export const SEQ2SEQ_WEIGHT_FILES = ["onnx/encoder_model_quantized.onnx", "onnx/decoder_model_merged_quantized.onnx"];

export interface AbstractiveModel {
  name: string;
  /** Weight files absent from the models folder (empty when installed). */
  missing: string[];
}

/** Which weight files of the model are on disk; read once at start-up (the image installs them at build time). */
export function locateAbstractiveModel(modelsDir: string, name: string): AbstractiveModel {
  return { name, missing: SEQ2SEQ_WEIGHT_FILES.filter((file) => !existsSync(path.join(modelsDir, name, file))) };
}

/**
 * `mode: abstractive` cannot be served here: either the weights are absent, or (weights present) this build carries
 * no ONNX runtime to run them. Both are a 503 that names the model and what to install; never an extractive summary
 * labelled abstractive.
 */
export function abstractiveUnavailable(model: AbstractiveModel): ApiError {
  const install =
    `Install the ONNX weights of ${model.name} (${SEQ2SEQ_WEIGHT_FILES.join(", ")}) under MODELS_DIR/${model.name}/ ` +
    "(the production image downloads them at build time) and the @huggingface/transformers runtime, then restart; " +
    "or send mode extractive.";
  const what =
    model.missing.length > 0
      ? `The abstractive model ${model.name} is not installed: ${model.missing.join(" and ")} are missing.`
      : `The abstractive model ${model.name} is installed, but this build has no transformers.js runtime to run it.`;
  return new ApiError(503, "MODEL_UNAVAILABLE", `${what} ${install}`, [{ field: "mode", issue: `abstractive needs the ${model.name} weights` }]);
}
