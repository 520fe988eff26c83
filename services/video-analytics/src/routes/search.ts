import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { pageInfo, pageOf, parseDateRange } from "@apiplat/catalogue";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import * as S from "../schemas.js";
import { findVideos, type VideoCatalogue } from "../store/video-catalogue.js";
import { categoryExists, categoryIdByName } from "../store/videos.js";
import { videoSummary } from "./views.js";

/** A category given by id or by name; 400 naming the field when no list knows it. */
export async function resolveCategory(db: Queryable, value: string | undefined): Promise<number | undefined> {
  if (value === undefined) return undefined;
  if (/^\d{1,4}$/.test(value)) {
    if (!(await categoryExists(db, Number(value))))
      throw errors.validation(
        "category",
        `${value} is not the id of a YouTube category of the data; give the category_id of a video or a name such as Music or Entertainment`,
      );
    return Number(value);
  }
  const id = await categoryIdByName(db, value);
  if (id === null) throw errors.validation("category", `"${value}" is not a YouTube category name; give its id or a name such as Music or Entertainment`);
  return id;
}

export const searchRoutes: FastifyPluginAsyncTypebox<{ db: Queryable; catalogue: VideoCatalogue }> = async (app, { db, catalogue }) => {
  app.get(
    "/search",
    {
      schema: {
        summary: "Search videos with their analytics",
        description: "Full-text search over titles (weight A), tags (B) and descriptions (C), with filters; every result carries its analytics summary.",
        querystring: S.SearchQuery,
        response: { 200: successSchema(S.SearchPage) },
      },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      if (query.q !== undefined && query.q.trim() === "") throw errors.validation("q", "must contain at least one word");
      const text = query.q === undefined ? undefined : { query: await catalogue.prepare(query.q) };
      const range = parseDateRange({ from: ["published_after", query.published_after], to: ["published_before", query.published_before] });
      const sort = query.sort ?? (text ? "relevance" : "views");
      const { total, videos } = await findVideos(
        catalogue,
        {
          text,
          country: query.country,
          categoryId: await resolveCategory(db, query.category),
          publishedAfter: range.from,
          publishedBefore: range.to,
          minViews: query.min_views,
        },
        sort,
        page,
      );
      return ok({ ...pageInfo(page, total), corrected_query: text?.query.corrected ?? null, videos: videos.map(videoSummary) });
    },
  );
};
