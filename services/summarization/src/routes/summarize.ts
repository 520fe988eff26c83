import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import { toolsFor } from "../domain/languages.js";
import { summarizeLong } from "../domain/long.js";
import { joinSentences } from "../domain/sentences.js";
import { analyze, round, selectSentences, summaryPlan, type ScoredSentence } from "../domain/summarize.js";
import type { Style } from "../domain/styles.js";
import { countTokens, countWords } from "../domain/text.js";
import { abstractiveUnavailable, type AbstractiveModel } from "../engine/abstractive-model.js";
import type { PageReader } from "../engine/page-reader.js";
import * as S from "../schemas.js";
import type { SummarizationSettings } from "../settings.js";
import { enforceTokenLimit, resolveInput, type ResolvedInput } from "./input.js";

export interface SummarizeRoutesOptions {
  pages: PageReader;
  abstractiveModel: AbstractiveModel;
  settings: Pick<SummarizationSettings, "tokenLimit" | "longMaxWords">;
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

function summaryView(input: ResolvedInput, picked: ScoredSentence[], style: Style | undefined, counts: { words: number; sentences: number; tokens: number }) {
  const summary = joinSentences(picked.map((s) => s.text));
  const summaryWords = countWords(summary, input.language);
  return {
    summary,
    sentences: picked,
    mode: "extractive" as const,
    style: style ?? null,
    language: input.language,
    language_detected: input.detected,
    source: input.source,
    counts: {
      source_words: counts.words,
      source_sentences: counts.sentences,
      source_tokens: counts.tokens,
      summary_words: summaryWords,
      summary_sentences: picked.length,
    },
    compression: counts.words > 0 ? round(summaryWords / counts.words, 4) : 0,
  };
}

export const summarizeRoutes: FastifyPluginAsyncTypebox<SummarizeRoutesOptions> = async (app, { pages, abstractiveModel, settings }) => {
  const summarize = async (body: S.SummarizeBody) => {
    if (body.mode === "abstractive") throw abstractiveUnavailable(abstractiveModel);
    const bounds = sentenceBounds(body);
    const input = await resolveInput(body, pages);
    const tokens = enforceTokenLimit(input.text, input.language, settings);
    const tools = toolsFor(input.language);
    const sentences = analyze(input.text, tools);
    const plan = summaryPlan(sentences, tools, bounds);
    const picked = selectSentences(sentences, tools, { ...plan, style: body.style });
    const words = sentences.reduce((sum, s) => sum + s.words, 0);
    return ok(summaryView(input, picked, body.style, { words, sentences: sentences.length, tokens }));
  };

  app.post(
    "/summarize",
    {
      schema: {
        summary: "Summarize text, a page, or both",
        description:
          "Extractive summary (LexRank with a position prior, which news-like text leans on harder, and MMR) of `text`, " +
          "of the page at `url`, or of both (text first); 2 to 5 sentences unless min_length or max_length say otherwise. " +
          "Takes at most 4,096 tokens; longer input goes to /summarize/long.",
        body: S.SummarizeBody,
        response: { 200: successSchema(S.Summary) },
      },
    },
    async (request) => summarize(request.body),
  );

  app.post(
    "/summarize/url",
    {
      schema: {
        summary: "Summarize a web page or PDF",
        description: "Fetches the page through the outbound guard, extracts its main content (Readability; PDF text) and summarizes it.",
        body: S.SummarizeUrlBody,
        response: { 200: successSchema(S.Summary) },
      },
    },
    async (request) => summarize(request.body),
  );

  app.post(
    "/summarize/long",
    {
      schema: {
        summary: "Summarize a long text in chunks",
        description:
          "Splits the input on paragraph boundaries into chunks of at most 2,000 tokens, summarizes each to 3 sentences, " +
          "then summarizes those summaries. Takes up to 100,000 words.",
        body: S.SummarizeBody,
        response: { 200: successSchema(S.LongSummary) },
      },
    },
    async (request) => {
      const body = request.body;
      if (body.mode === "abstractive") throw abstractiveUnavailable(abstractiveModel);
      const bounds = sentenceBounds(body);
      const input = await resolveInput(body, pages);
      // Chinese words come from ICU's dictionary at about 3 µs a character: the character bound keeps that under a second.
      const maxChars = settings.longMaxWords * (input.language === "zh" ? 2 : 10);
      if (input.text.length > maxChars) {
        throw errors.payloadTooLarge(
          "text",
          `is ${input.text.length} characters long and /summarize/long takes at most ${settings.longMaxWords} words ` +
            `(${maxChars} characters${input.language === "zh" ? " of Chinese" : ""})`,
        );
      }
      const words = countWords(input.text, input.language);
      if (words > settings.longMaxWords) {
        throw errors.payloadTooLarge("text", `is ${words} words long and /summarize/long takes at most ${settings.longMaxWords} words`);
      }
      const tools = toolsFor(input.language);
      const long = summarizeLong(input.text, tools, { ...bounds, style: body.style });
      const view = summaryView(input, long.sentences, body.style, {
        words: long.sourceWords,
        sentences: long.sourceSentences,
        tokens: countTokens(input.text, input.language),
      });
      const chunks = long.chunks.map((chunk) => ({ ...chunk, summary: joinSentences(chunk.sentences.map((s) => s.text)) }));
      return ok({ ...view, chunk_count: chunks.length, chunks });
    },
  );
};
