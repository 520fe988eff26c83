import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { relatedQueries } from "../domain/related.js";
import * as S from "../schemas.js";
import { searchWeb, type Ranking, type SearchCatalogue } from "../store/search-catalogue.js";
import { envelope, positionOf, prepareSearch } from "./query.js";
import { organicResultView } from "./views.js";

export interface WebRoutesOptions {
  db: Queryable;
  catalogue: SearchCatalogue;
  ranking: Ranking;
}

export const webRoutes: FastifyPluginAsyncTypebox<WebRoutesOptions> = async (app, { db, catalogue, ranking }) => {
  app.get(
    "/search",
    {
      schema: {
        summary: "Web results",
        description:
          "Organic results over the indexed pages (Wikipedia films and biographies, Stack Exchange questions and answers, crawled pages), ranked by ts_rank_cd with length normalization plus a title boost, with snippets, the words they highlight, and related searches from phrases that recur in the best results. Misspelt words are corrected from the index's vocabulary.",
        querystring: S.SearchQuery,
        response: { 200: successSchema(S.WebSearchPage) },
      },
    },
    async (request) => {
      const prepared = await prepareSearch(db, catalogue, request.query);
      const { total, hits } = await searchWeb(catalogue, prepared.request, ranking);
      const shown = hits.slice(0, prepared.num);
      const related =
        prepared.request.offset === 0
          ? relatedQueries(
              prepared.request.query.corrected ?? request.query.q,
              hits.map((h) => h.opening),
            )
          : [];
      return ok({
        ...envelope(request.query, prepared, total),
        organic_results: shown.map((hit, index) => organicResultView(hit, positionOf(prepared, index))),
        related_searches: related.map((query) => ({ query, link: `/search?q=${encodeURIComponent(query)}` })),
      });
    },
  );
};
