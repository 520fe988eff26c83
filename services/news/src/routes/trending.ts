import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { MIN_TOPIC_HEADLINES, scoreTerms, surfaceForm } from "../domain/trending.js";
import * as S from "../schemas.js";
import { headlinesWith, newestPublished, termCounts, windowTotals } from "../store/trending.js";
import { refuseUnknown } from "./known-values.js";

export interface TrendingRoutesOptions {
  db: Queryable;
}

const DAY_MS = 86_400_000;
const EXAMPLES = 3;

export const trendingRoutes: FastifyPluginAsyncTypebox<TrendingRoutesOptions> = async (app, { db }) => {
  app.get(
    "/trending",
    {
      schema: {
        summary: "Trending topics",
        description:
          "Headline words whose count rose most against the previous window of the same length. The window ends at the newest article in scope (the catalogue is historical), not at the current time.",
        querystring: S.TrendingQuery,
        response: { 200: successSchema(S.Trending) },
      },
    },
    async (request) => {
      const { window = "24h", country, category, limit = 10 } = request.query;
      await refuseUnknown(db, "country", "country", country);
      await refuseUnknown(db, "category", "category", category);
      const scope = { country, category };
      const end = await newestPublished(db, scope);
      if (!end) {
        return ok({ window, window_start: null, window_end: null, headlines_in_window: 0, headlines_in_previous_window: 0, topics: [] });
      }
      const length = S.WINDOWS[window as keyof typeof S.WINDOWS] * DAY_MS;
      const middle = new Date(end.getTime() - length);
      const start = new Date(end.getTime() - 2 * length);
      const totals = await windowTotals(db, scope, start, middle, end);
      const scored = scoreTerms(await termCounts(db, scope, start, middle, end, MIN_TOPIC_HEADLINES), limit);
      const topics = [];
      for (const term of scored) {
        const headlines = await headlinesWith(db, scope, term.lexeme, middle, end, 50);
        topics.push({
          topic: surfaceForm(
            term.lexeme,
            headlines.map((h) => h.title),
          ),
          count: term.count,
          previous_count: term.previous_count,
          growth: term.growth,
          example_headlines: headlines.slice(0, EXAMPLES).map((h) => ({
            title: h.title,
            url: h.url,
            source: h.source_name,
            published_at: h.published_at.toISOString(),
          })),
        });
      }
      return ok({
        window,
        window_start: middle.toISOString(),
        window_end: end.toISOString(),
        headlines_in_window: totals.current,
        headlines_in_previous_window: totals.previous,
        topics,
      });
    },
  );
};
