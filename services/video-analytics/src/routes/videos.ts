import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { dailyGains, dailyGrowthRate } from "../domain/videos.js";
import * as S from "../schemas.js";
import { findVideo, snapshotsOf } from "../store/videos.js";
import { videoSummary } from "./views.js";

export const videoRoutes: FastifyPluginAsyncTypebox<{ db: Queryable }> = async (app, { db }) => {
  app.get(
    "/video/:id",
    {
      schema: {
        summary: "A video's details, metrics and analytics",
        description:
          "Metadata and the latest snapshot's metrics, with analytics over every snapshot: daily gains, growth, engagement, days and countries trending, peak rank.",
        params: S.VideoParams,
        response: { 200: successSchema(S.VideoDetails) },
      },
    },
    async (request) => {
      const video = await findVideo(db, request.params.id);
      if (!video) throw errors.notFound(`No video ${request.params.id} in the catalogue (it holds videos that trended in 2017-2018).`);
      const snapshots = await snapshotsOf(db, video.video_id);
      return ok({
        ...videoSummary(video),
        tags: video.tags,
        description: video.description,
        comments_disabled: video.comments_disabled,
        ratings_disabled: video.ratings_disabled,
        trending: {
          first_trending_date: video.first_trending_date,
          last_trending_date: video.latest_trending_date,
          daily_growth_rate: dailyGrowthRate(snapshots),
          daily_gains: dailyGains(snapshots),
          snapshots,
        },
      });
    },
  );
};
