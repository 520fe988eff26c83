import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import { cosine, rankByScore } from "../domain/vectors.js";
import type { Embedder } from "../inference/embedder.js";
import * as S from "../schemas.js";
import { acceptCount, acceptEach } from "./texts.js";

export interface SimilarityRoutesOptions {
  embedder: Embedder;
}

/** The two accepted shapes of /similarity, as one query against a list. */
function readPairs(body: S.SimilarityBody): { pair: boolean; source: string; others: string[]; fields: string[] } {
  const source = body.source_sentence ?? body.inputs?.source_sentence;
  const sentences = body.sentences ?? body.inputs?.sentences;
  const prefix = body.inputs && body.source_sentence === undefined ? "inputs." : "";
  if (body.text_1 !== undefined || body.text_2 !== undefined) {
    if (source !== undefined || sentences !== undefined) {
      throw errors.validation("text_1", "cannot be combined with source_sentence and sentences; send one shape");
    }
    if (body.text_1 === undefined) throw errors.validation("text_1", "is required with text_2");
    if (body.text_2 === undefined) throw errors.validation("text_2", "is required with text_1");
    return { pair: true, source: body.text_1, others: [body.text_2], fields: ["text_1", "text_2"] };
  }
  if (source === undefined || sentences === undefined) {
    throw errors.validation("text_1", "is required with text_2 (or give source_sentence with sentences)");
  }
  acceptCount(sentences.length, `${prefix}sentences`);
  return { pair: false, source, others: sentences, fields: [`${prefix}source_sentence`, ...sentences.map((_, i) => `${prefix}sentences[${i}]`)] };
}

export const similarityRoutes: FastifyPluginAsyncTypebox<SimilarityRoutesOptions> = async (app, { embedder }) => {
  app.post(
    "/similarity",
    {
      schema: {
        summary: "Cosine similarity of texts",
        description:
          "`text_1` and `text_2` give `similarity`; `source_sentence` and up to 100 `sentences` (also inside `inputs`, the TEI shape) give one score per sentence.",
        body: S.SimilarityBody,
        response: { 200: successSchema(S.Similarity) },
      },
    },
    async (request) => {
      const { pair, source, others, fields } = readPairs(request.body);
      const texts = [source, ...others];
      acceptEach(texts, fields);
      const model = embedder.resolve(request.body.model);
      const { vectors, totalTokens, warnings } = await embedder.embed(model, texts, true, fields);
      const scores = vectors.slice(1).map((v) => cosine(vectors[0], v));
      const usage = { total_tokens: totalTokens };
      return ok(pair ? { model: model.spec.id, similarity: scores[0], usage, warnings } : { model: model.spec.id, scores, usage, warnings });
    },
  );

  app.post(
    "/rerank",
    {
      schema: {
        summary: "Rank documents against a query",
        description: "Up to 100 documents sorted by cosine similarity of their embedding to the query's, best first, with their input index.",
        body: S.RerankBody,
        response: { 200: successSchema(S.Reranked) },
      },
    },
    async (request) => {
      const { query, documents, top_n, return_documents = false, model: name } = request.body;
      acceptCount(documents.length, "documents");
      const fields = ["query", ...documents.map((_, i) => `documents[${i}]`)];
      acceptEach([query, ...documents], fields);
      const model = embedder.resolve(name);
      const { vectors, totalTokens, warnings } = await embedder.embed(model, [query, ...documents], true, fields);
      const ranked = rankByScore(vectors.slice(1).map((v) => cosine(vectors[0], v))).slice(0, top_n ?? documents.length);
      return ok({
        model: model.spec.id,
        results: ranked.map((r) => (return_documents ? { ...r, document: documents[r.index] } : r)),
        usage: { total_tokens: totalTokens },
        warnings,
      });
    },
  );
};
