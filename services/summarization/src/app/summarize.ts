/** The summary use cases: the input resolved (text, page, or both), bounded, analyzed, and its sentences picked. */
import { errors } from "@apiplat/service-kit";
import { toolsFor } from "../domain/languages.js";
import { summarizeLong, type LongSummary } from "../domain/long.js";
import { analyze, selectSentences, summaryPlan, type ScoredSentence } from "../domain/summarize.js";
import { countTokens, countWords } from "../domain/text.js";
import { abstractiveUnavailable, type AbstractiveModel } from "../engine/abstractive-model.js";
import type { PageReader } from "../engine/page-reader.js";
import type * as S from "../schemas.js";
import type { SummarizationSettings } from "../settings.js";
import { enforceTokenLimit, resolveInput, type ResolvedInput } from "./input.js";

export interface SummarizeDeps {
  pages: PageReader;
  abstractiveModel: AbstractiveModel;
  settings: Pick<SummarizationSettings, "tokenLimit" | "longMaxWords">;
}

export interface SourceCounts {
  words: number;
  sentences: number;
  tokens: number;
}

/** The spec's "summary of 2 to 5 sentences"; the length between them is summaryPlan's. */
const DEFAULT_MIN_SENTENCES = 2;
const DEFAULT_MAX_SENTENCES = 5;

interface LengthFields {
  min_length?: number;
  max_length?: number;
  mode?: "extractive" | "abstractive";
}

/** The summary's bounds in sentences: a lone bound moves the other default out of its way; two crossed bounds are a 400. */
function sentenceBounds(body: LengthFields): { min: number; max: number } {
  if (body.min_length !== undefined && body.max_length !== undefined && body.min_length > body.max_length) {
    throw errors.validation("min_length", `must not exceed max_length (${body.max_length})`);
  }
  const min = body.min_length ?? Math.min(DEFAULT_MIN_SENTENCES, body.max_length ?? DEFAULT_MIN_SENTENCES);
  const max = body.max_length ?? Math.max(DEFAULT_MAX_SENTENCES, min);
  return { min, max };
}

/** A summary of at most the token limit: the sentences picked, with the source's counts. */
export async function summarize(
  { pages, abstractiveModel, settings }: SummarizeDeps,
  body: S.SummarizeBody,
): Promise<{ input: ResolvedInput; picked: ScoredSentence[]; counts: SourceCounts }> {
  if (body.mode === "abstractive") throw abstractiveUnavailable(abstractiveModel);
  const bounds = sentenceBounds(body);
  const input = await resolveInput(body, pages);
  const tokens = enforceTokenLimit(input.text, input.language, settings);
  const tools = toolsFor(input.language);
  const sentences = analyze(input.text, tools);
  const plan = summaryPlan(sentences, tools, bounds);
  const picked = selectSentences(sentences, tools, { ...plan, style: body.style });
  const words = sentences.reduce((sum, s) => sum + s.words, 0);
  return { input, picked, counts: { words, sentences: sentences.length, tokens } };
}

/** The long text's bound: at most longMaxWords words, and a character bound that keeps the word count itself fast. */
function enforceLongLimit(input: ResolvedInput, longMaxWords: number): void {
  // Chinese words come from ICU's dictionary at about 3 µs a character: the character bound keeps that under a second.
  const maxChars = longMaxWords * (input.language === "zh" ? 2 : 10);
  if (input.text.length > maxChars) {
    throw errors.payloadTooLarge(
      "text",
      `is ${input.text.length} characters long and /summarize/long takes at most ${longMaxWords} words ` +
        `(${maxChars} characters${input.language === "zh" ? " of Chinese" : ""})`,
    );
  }
  const words = countWords(input.text, input.language);
  if (words > longMaxWords) {
    throw errors.payloadTooLarge("text", `is ${words} words long and /summarize/long takes at most ${longMaxWords} words`);
  }
}

/** A long text summarized chunk by chunk, then the chunks' summaries summarized. */
export async function summarizeLongText(
  { pages, abstractiveModel, settings }: SummarizeDeps,
  body: S.SummarizeBody,
): Promise<{ input: ResolvedInput; long: LongSummary; counts: SourceCounts }> {
  if (body.mode === "abstractive") throw abstractiveUnavailable(abstractiveModel);
  const bounds = sentenceBounds(body);
  const input = await resolveInput(body, pages);
  enforceLongLimit(input, settings.longMaxWords);
  const long = summarizeLong(input.text, toolsFor(input.language), { ...bounds, style: body.style });
  return { input, long, counts: { words: long.sourceWords, sentences: long.sourceSentences, tokens: countTokens(input.text, input.language) } };
}
