import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { categoryMix, channelTotals } from "../domain/channels.js";
import * as S from "../schemas.js";
import { channelHistory, channelVideos } from "../store/videos.js";
import { videoSummary } from "./views.js";

const TOP_VIDEOS = 10;

export const channelRoutes: FastifyPluginAsyncTypebox<{ db: Queryable }> = async (app, { db }) => {
  app.get(
    "/channel/:id",
    {
      schema: {
        summary: "A channel's analytics",
        description: "Totals over the channel's videos (each at its latest snapshot), average engagement, top videos, category mix and trending history.",
        params: S.ChannelParams,
        response: { 200: successSchema(S.ChannelDetails) },
      },
    },
    async (request) => {
      const videos = await channelVideos(db, request.params.id);
      if (videos.length === 0) throw errors.notFound(`No channel ${request.params.id} in the catalogue.`);
      const history = await channelHistory(db, request.params.id);
      const countries = [...new Set(videos.flatMap((v) => v.countries ?? []))].sort();
      return ok({
        id: request.params.id,
        title: videos[0].channel_title ?? "",
        ...channelTotals(videos),
        countries,
        first_trending_date: history[0]?.trending_date ?? null,
        last_trending_date: history.at(-1)?.trending_date ?? null,
        top_videos: videos.slice(0, TOP_VIDEOS).map(videoSummary),
        category_mix: categoryMix(videos),
        trending_history: history.map((h) => ({ date: h.trending_date, videos: h.videos, countries: h.countries })),
      });
    },
  );
};
