import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import * as S from "../schemas.js";
import { searchImagesInMemory, type SearchCatalogue } from "../store/search-catalogue.js";
import { envelope, positionOf, prepareSearch } from "./query.js";

export interface ImageRoutesOptions {
  db: Queryable;
  catalogue: SearchCatalogue;
}

export const IMAGE_SOURCE = "COCO 2017 (images from Flickr)";

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
      const { total, hits } = await searchImagesInMemory(catalogue, db, prepared.request);
      return ok({
        ...envelope(request.query, prepared, total),
        images_results: hits.map((hit, index) => ({
          position: positionOf(prepared, index),
          title: hit.title ?? "",
          original: hit.original,
          source: IMAGE_SOURCE,
          width: hit.width,
          height: hit.height,
          flickr_url: hit.flickr_url,
          licence: hit.licence_name && hit.licence_url ? { name: hit.licence_name, url: hit.licence_url } : null,
        })),
      });
    },
  );
};
