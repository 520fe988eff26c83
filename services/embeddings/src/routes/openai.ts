import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors } from "@apiplat/service-kit";
import { listTexts } from "../domain/texts.js";
import { toBase64 } from "../domain/vectors.js";
import type { Embedder } from "../inference/embedder.js";
import * as S from "../schemas.js";
import { acceptCount, acceptEach } from "./texts.js";

export interface OpenAiRoutesOptions {
  embedder: Embedder;
}

/**
 * OpenAI's embeddings API, so that its client libraries work by changing the base URL. The success body is OpenAI's
 * own (no envelope); errors keep the platform's envelope, which those clients surface as an API error.
 */
export const openAiRoutes: FastifyPluginAsyncTypebox<OpenAiRoutesOptions> = async (app, { embedder }) => {
  app.post(
    "/v1/embeddings",
    {
      schema: {
        summary: "Embed texts (OpenAI-compatible)",
        description:
          "OpenAI's request and response: `input`, `model`, `encoding_format` (float or base64) -> `object: list`, `data[].embedding`, `usage`. Vectors are L2-normalized, as OpenAI's are.",
        body: S.OpenAiBody,
        response: { 200: S.OpenAiList },
      },
    },
    async (request) => {
      const { input, model: name, encoding_format = "float", dimensions } = request.body;
      const { texts, fields } = listTexts(input, "input");
      acceptCount(texts.length, "input");
      acceptEach(texts, fields);
      const model = embedder.resolve(name);
      if (dimensions !== undefined && dimensions !== model.spec.dimensions) {
        throw errors.validation("dimensions", `must be ${model.spec.dimensions} for ${model.spec.id} (this service does not shorten vectors)`);
      }
      const { vectors, totalTokens, warnings } = await embedder.embed(model, texts, true, fields);
      return {
        object: "list" as const,
        data: vectors.map((vector, index) => ({
          object: "embedding" as const,
          index,
          embedding: encoding_format === "base64" ? toBase64(vector) : Array.from(vector),
        })),
        model: model.spec.id,
        usage: { prompt_tokens: totalTokens, total_tokens: totalTokens },
        // Not in OpenAI's answer, which has no place for it: present only when there is something to say.
        ...(warnings.length > 0 ? { warnings } : {}),
      };
    },
  );
};
