import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { datasetsView, pageInfo, pageOf, type IngestionSource } from "@apiplat/catalogue";
import { ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import * as S from "../schemas.js";
import { listSources } from "../store/sources.js";

export interface SourceRoutesOptions {
  db: Queryable;
  datasets: readonly IngestionSource<any, any>[];
}

export const sourceRoutes: FastifyPluginAsyncTypebox<SourceRoutesOptions> = async (app, { db, datasets }) => {
  app.get(
    "/sources",
    {
      schema: {
        summary: "News sources",
        description:
          "Publishers with their article count and date range, largest first; and the datasets the catalogue was loaded from, with attribution and their latest ingestion run.",
        querystring: S.SourcesQuery,
        response: { 200: successSchema(S.SourcesPage) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { total, sources } = await listSources(db, request.query, page);
      return ok({
        ...pageInfo(page, total),
        sources: sources.map((s) => ({
          ...s,
          oldest_published_at: s.oldest_published_at?.toISOString() ?? null,
          newest_published_at: s.newest_published_at?.toISOString() ?? null,
        })),
        datasets: await datasetsView(db, datasets),
      });
    },
  );
};
