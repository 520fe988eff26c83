import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { pageInfo, pageOf } from "@apiplat/catalogue";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { round } from "../domain/videos.js";
import * as S from "../schemas.js";
import { previousDay, trendingCountries, trendingDay, videosByIds } from "../store/videos.js";
import { resolveCategory } from "./search.js";
import { videoSummary } from "./views.js";

export const trendingRoutes: FastifyPluginAsyncTypebox<{ db: Queryable }> = async (app, { db }) => {
  app.get(
    "/trending",
    {
      schema: {
        summary: "Trending videos of a country",
        description:
          "A day's trending videos of a country ranked by trending score, the view velocity between snapshots (views gained per day since the video's previous snapshot there; for its first, views per day since publication), with the rank change against the previous day in the data.",
        querystring: S.TrendingQuery,
        response: { 200: successSchema(S.TrendingPage) },
      },
    },
    async (request) => {
      const query = request.query;
      const country = query.country.toLowerCase();
      const page = pageOf(query);
      const countries = await trendingCountries(db);
      const known = countries.find((c) => c.country === country);
      if (!known) {
        throw errors.notFound(`No trending data for country "${country}"; countries with data: ${countries.map((c) => c.country).join(", ")}.`);
      }
      const day = query.date ?? known.newest;
      const categoryId = await resolveCategory(db, query.category);
      const today = await trendingDay(db, country, day, categoryId);
      if (today.length === 0 && categoryId === undefined) {
        throw errors.notFound(`No trending list for ${country} on ${day}; its newest day in the data is ${known.newest}.`);
      }
      const before = await previousDay(db, country, day);
      const previousRanks = new Map<string, number>();
      if (before) (await trendingDay(db, country, before, categoryId)).forEach((v, i) => previousRanks.set(v.video_id, i + 1));
      const slice = today.slice(page.offset, page.offset + page.limit);
      const details = await videosByIds(
        db,
        slice.map((v) => v.video_id),
      );
      return ok({
        country,
        date: day,
        previous_date: before,
        ...pageInfo(page, today.length),
        videos: slice.map((v, i) => {
          const rank = page.offset + i + 1;
          const previous = previousRanks.get(v.video_id) ?? null;
          return {
            rank,
            previous_rank: previous,
            rank_change: previous === null ? null : previous - rank,
            trending_score: round(v.velocity, 2),
            list_position: v.list_position,
            video: videoSummary(details.get(v.video_id)!),
            day_metrics: { as_of: day, views: v.views, likes: v.likes, dislikes: v.dislikes, comments: v.comments },
          };
        }),
      });
    },
  );
};
