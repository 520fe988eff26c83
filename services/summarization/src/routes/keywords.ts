import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import { extractKeyPhrases } from "../domain/keywords.js";
import { toolsFor } from "../domain/languages.js";
import type { PageReader } from "../engine/page-reader.js";
import * as S from "../schemas.js";
import type { SummarizationSettings } from "../settings.js";
import { enforceTokenLimit, resolveInput } from "../app/input.js";

export interface KeywordRoutesOptions {
  pages: PageReader;
  settings: Pick<SummarizationSettings, "tokenLimit" | "longMaxWords">;
}

const DEFAULT_TOP_N = 10;

export const keywordRoutes: FastifyPluginAsyncTypebox<KeywordRoutesOptions> = async (app, { pages, settings }) => {
  app.post(
    "/keywords",
    {
      schema: {
        summary: "Key phrases",
        description:
          "The `top_n` key phrases of `text` or of the page at `url` by RAKE (runs of up to 4 content words between stopwords " +
          "and punctuation, scored by their words' degree/frequency), with scores and counts.",
        body: S.KeywordsBody,
        response: { 200: successSchema(S.Keywords) },
      },
    },
    async (request) => {
      const input = await resolveInput(request.body, pages);
      enforceTokenLimit(input.text, input.language, settings);
      return ok({
        keywords: extractKeyPhrases(input.text, toolsFor(input.language), request.body.top_n ?? DEFAULT_TOP_N),
        method: "rake" as const,
        language: input.language,
        language_detected: input.detected,
        source: input.source,
      });
    },
  );
};
