import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import * as S from "../schemas.js";
import { searchImages, type SearchCatalogue } from "../store/search-catalogue.js";
import { envelope, positionOf, prepareSearch } from "./query.js";
import { imageResultView } from "./views.js";

export interface ImageRoutesOptions {
  db: Queryable;
  catalogue: SearchCatalogue;
}

export const imageRoutes: FastifyPluginAsyncTypebox<ImageRoutesOptions> = async (app, { db, catalogue }) => {
  app.get(
    "/images",
    {
      schema: {
        summary: "Image results",
        description:
          "Images whose captions match the query (MS-COCO 2017 validation: about five human captions per image), ranked by ts_rank_cd. The title is the image's first caption; no thumbnail is known, so none is given.",
        querystring: S.SearchQuery,
        response: { 200: successSchema(S.ImageSearchPage) },
      },
    },
    async (request) => {
      const prepared = await prepareSearch(db, catalogue, request.query);
      const { total, hits } = await searchImages(catalogue, prepared.request);
      return ok({
        ...envelope(request.query, prepared, total),
        images_results: hits.map((hit, index) => imageResultView(hit, positionOf(prepared, index))),
      });
    },
  );
};
