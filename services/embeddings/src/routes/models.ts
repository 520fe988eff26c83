import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import type { ModelRegistry } from "../inference/registry.js";
import * as S from "../schemas.js";

export interface ModelRoutesOptions {
  registry: ModelRegistry;
}

export const modelRoutes: FastifyPluginAsyncTypebox<ModelRoutesOptions> = async (app, { registry }) => {
  app.get(
    "/models",
    {
      schema: {
        summary: "List the embedding models",
        description: "Every model this service knows, whether its weights are installed here, and which one /embed uses by default.",
        response: { 200: successSchema(S.Models) },
      },
    },
    async () => {
      const fallback = registry.defaultModel()?.spec.id ?? null;
      return ok({
        default_model: fallback,
        models: registry.models.map(({ spec, installed }) => ({
          id: spec.id,
          aliases: spec.aliases,
          dimensions: spec.dimensions,
          max_tokens: spec.maxTokens,
          ...(spec.windowTokens !== undefined ? { window_tokens: spec.windowTokens } : {}),
          languages: spec.languages,
          pooling: spec.pooling,
          runtime: spec.runtime,
          installed,
          default: spec.id === fallback,
          endpoint: spec.multilingual ? "/embed/multilingual" : "/embed",
          licence: spec.licence,
        })),
      });
    },
  );
};
