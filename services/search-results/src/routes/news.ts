import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import * as S from "../schemas.js";
import { searchNews, type SearchCatalogue } from "../store/search-catalogue.js";
import { envelope, positionOf, prepareSearch } from "./query.js";
import { newsResultView } from "./views.js";

export interface NewsRoutesOptions {
  db: Queryable;
  catalogue: SearchCatalogue;
}

export const newsRoutes: FastifyPluginAsyncTypebox<NewsRoutesOptions> = async (app, { db, catalogue }) => {
  app.get(
    "/news",
    {
      schema: {
        summary: "News results",
        description:
          "Headlines with a link (HuffPost 2022 and UCI News Aggregator 2014) matching the query, title weighted over description, ranked by ts_rank_cd then newest first.",
        querystring: S.SearchQuery,
        response: { 200: successSchema(S.NewsSearchPage) },
      },
    },
    async (request) => {
      const prepared = await prepareSearch(db, catalogue, request.query);
      const { total, hits } = await searchNews(catalogue, prepared.request);
      return ok({
        ...envelope(request.query, prepared, total),
        news_results: hits.map((hit, index) => newsResultView(hit, positionOf(prepared, index))),
      });
    },
  );
};
