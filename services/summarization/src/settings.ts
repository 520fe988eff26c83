import type { Env, PlatformConfig } from "@apiplat/config";
import { integerSetting } from "@apiplat/config";

export interface SummarizationSettings {
  /** Tokens (see domain/text.ts countTokens) the standard endpoints take; past it, /summarize/long. */
  tokenLimit: number;
  /** Words /summarize/long takes. */
  longMaxWords: number;
  /** Bounds of a page fetch. */
  fetchTimeoutMs: number;
  fetchMaxBytes: number;
  /** The seq2seq model `mode: abstractive` needs, as a folder under modelsDir (transformers.js layout). */
  abstractiveModel: string;
  modelsDir: string;
}

/** Settings from SUMMARIZATION_* (bad values stop the start). */
export function readSettings(env: Env, config: PlatformConfig): SummarizationSettings {
  return {
    tokenLimit: integerSetting(env, "SUMMARIZATION_TOKEN_LIMIT", 4_096, 100),
    longMaxWords: integerSetting(env, "SUMMARIZATION_LONG_MAX_WORDS", 100_000, 1_000),
    fetchTimeoutMs: integerSetting(env, "SUMMARIZATION_FETCH_TIMEOUT_MS", 10_000, 100),
    fetchMaxBytes: integerSetting(env, "SUMMARIZATION_FETCH_MAX_BYTES", 3 * 1024 * 1024, 1_024),
    abstractiveModel: env.SUMMARIZATION_ABSTRACTIVE_MODEL || "Xenova/t5-small",
    modelsDir: config.modelsDir,
  };
}
