import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import { listTexts } from "../domain/texts.js";
import type { Embedder } from "../inference/embedder.js";
import * as S from "../schemas.js";
import { acceptCount, acceptEach } from "./texts.js";

export interface EmbedRoutesOptions {
  embedder: Embedder;
}

export const embedRoutes: FastifyPluginAsyncTypebox<EmbedRoutesOptions> = async (app, { embedder }) => {
  const handle = (multilingual: boolean) => async (request: { body: S.EmbedBody }) => {
    const { input, model: name, normalize = true } = request.body;
    const { texts, fields } = listTexts(input, "input");
    acceptCount(texts.length, "input");
    acceptEach(texts, fields);
    const model = embedder.resolve(name, { multilingual });
    const embedded = await embedder.embed(model, texts, normalize, fields);
    return ok({
      model: model.spec.id,
      dimensions: model.spec.dimensions,
      normalized: normalize,
      embeddings: embedded.vectors.map((v) => Array.from(v)),
      tokens: embedded.tokens,
      truncated: embedded.truncated,
      usage: { total_tokens: embedded.totalTokens },
      warnings: embedded.warnings,
    });
  };

  app.post(
    "/embed",
    {
      schema: {
        summary: "Embed texts",
        description:
          "One float vector per text, in input order. Without `model`, the best installed model. Texts over the model's token limit " +
          "(512) are cut to it (`truncated`); `warnings` names each text cut or, for an English-only model, not in English.",
        body: S.EmbedBody,
        response: { 200: successSchema(S.Embeddings) },
      },
    },
    handle(false),
  );

  app.post(
    "/embed/multilingual",
    {
      schema: {
        summary: "Embed texts in any of 50+ languages",
        description:
          "As /embed, with the multilingual model (paraphrase-multilingual-mpnet-base-v2): 503 MODEL_UNAVAILABLE while its weights are not installed.",
        body: S.EmbedBody,
        response: { 200: successSchema(S.Embeddings) },
      },
    },
    handle(true),
  );
};
