import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import { trimLeadingConnective } from "../domain/bullets.js";
import { toolsFor } from "../domain/languages.js";
import { analyze, selectSentences } from "../domain/summarize.js";
import type { PageReader } from "../engine/page-reader.js";
import * as S from "../schemas.js";
import type { SummarizationSettings } from "../settings.js";
import { enforceTokenLimit, resolveInput } from "../app/input.js";

export interface BulletPointRoutesOptions {
  pages: PageReader;
  settings: Pick<SummarizationSettings, "tokenLimit" | "longMaxWords">;
}

const DEFAULT_BULLETS = 5;
/** A takeaway is a short sentence: longer ones are taken only when too few short ones remain. */
const BULLET_MAX_WORDS = 35;

export const bulletPointRoutes: FastifyPluginAsyncTypebox<BulletPointRoutesOptions> = async (app, { pages, settings }) => {
  app.post(
    "/bullet-points",
    {
      schema: {
        summary: "Key takeaways as a list",
        description:
          "The `count` best sentences of `text` or of the page at `url` (same ranking as /summarize, preferring sentences " +
          "of at most 35 words), each trimmed of a leading connective, in document order.",
        body: S.BulletPointsBody,
        response: { 200: successSchema(S.BulletPoints) },
      },
    },
    async (request) => {
      const input = await resolveInput(request.body, pages);
      enforceTokenLimit(input.text, input.language, settings);
      const tools = toolsFor(input.language);
      const picked = selectSentences(analyze(input.text, tools), tools, { count: request.body.count ?? DEFAULT_BULLETS, maxWords: BULLET_MAX_WORDS });
      return ok({
        bullets: picked.map((s) => ({ text: trimLeadingConnective(s.text, input.language), index: s.index, score: s.score })),
        language: input.language,
        language_detected: input.detected,
        source: input.source,
      });
    },
  );
};
