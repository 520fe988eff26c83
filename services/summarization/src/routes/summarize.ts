import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import { summarize, summarizeLongText } from "../app/summarize.js";
import { joinSentences } from "../domain/sentences.js";
import type { AbstractiveModel } from "../engine/abstractive-model.js";
import type { PageReader } from "../engine/page-reader.js";
import * as S from "../schemas.js";
import type { SummarizationSettings } from "../settings.js";
import { summaryView } from "./views.js";

export interface SummarizeRoutesOptions {
  pages: PageReader;
  abstractiveModel: AbstractiveModel;
  settings: Pick<SummarizationSettings, "tokenLimit" | "longMaxWords">;
}

export const summarizeRoutes: FastifyPluginAsyncTypebox<SummarizeRoutesOptions> = async (app, { pages, abstractiveModel, settings }) => {
  const deps = { pages, abstractiveModel, settings };
  const summaryOf = async (body: S.SummarizeBody) => {
    const { input, picked, counts } = await summarize(deps, body);
    return ok(summaryView(input, picked, body.style, counts));
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
    async (request) => summaryOf(request.body),
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
    async (request) => summaryOf(request.body),
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
      const { input, long, counts } = await summarizeLongText(deps, request.body);
      const chunks = long.chunks.map((chunk) => ({ ...chunk, summary: joinSentences(chunk.sentences.map((s) => s.text)) }));
      return ok({ ...summaryView(input, long.sentences, request.body.style, counts), chunk_count: chunks.length, chunks });
    },
  );
};
