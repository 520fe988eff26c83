/**
 * What GET /sources shows about a catalogue's datasets: each source's attribution (from its SOURCE.md) and its
 * latest ingestion run from `ingest_runs`.
 */
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { Type, type Static } from "typebox";
import type { IngestionSource } from "./ingest.js";

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const IngestRun = Type.Object({
  status: Type.String({ description: "running, succeeded or failed" }),
  started_at: Type.String({ format: "date-time" }),
  finished_at: Nullable(Type.String({ format: "date-time" })),
  rows_read: Type.Integer(),
  rows_inserted: Type.Integer(),
  rows_updated: Type.Integer(),
  rows_unchanged: Type.Integer(),
  rows_skipped: Type.Integer({ description: "malformed records reported and skipped" }),
  rows_per_second: Type.Union([Type.Number(), Type.Null()]),
});

export const DatasetView = Type.Object({
  name: Type.String({ description: "the source's name for `npm run ingest -- <service> --source <name>`" }),
  live: Type.Boolean({ description: "a live origin (feeds, an API, a crawl) rather than a dataset file" }),
  file: Type.String(),
  title: Type.String(),
  upstream: Type.String(),
  licence: Type.String(),
  copied_from: Type.Union([Type.String(), Type.Null()]),
  runs: Type.Integer({ description: "ingestion runs recorded" }),
  last_run: Type.Union([IngestRun, Type.Null()]),
});
export type DatasetView = Static<typeof DatasetView>;

interface RunRow {
  source: string;
  runs: number;
  status: string;
  started_at: Date;
  finished_at: Date | null;
  rows_read: number;
  rows_inserted: number;
  rows_updated: number;
  rows_unchanged: number;
  rows_skipped: number;
  rows_per_second: number | null;
}

export async function datasetsView(db: Queryable, sources: readonly IngestionSource<any, any>[]): Promise<DatasetView[]> {
  const { rows } = await db.query<RunRow>(
    `SELECT DISTINCT ON (source) source, count(*) OVER (PARTITION BY source)::int AS runs, status, started_at, finished_at,
       rows_read, rows_inserted, rows_updated, rows_unchanged, rows_skipped, rows_per_second
     FROM ingest_runs ORDER BY source, started_at DESC, id DESC`,
  );
  const bySource = new Map(rows.map((r) => [r.source, r]));
  return sources.map((source) => {
    const run = bySource.get(source.name);
    return {
      name: source.name,
      live: source.live ?? false,
      file: source.attribution.file,
      title: source.attribution.title,
      upstream: source.attribution.upstream,
      licence: source.attribution.licence,
      copied_from: source.attribution.copied_from ?? null,
      runs: run?.runs ?? 0,
      last_run: run
        ? {
            status: run.status,
            started_at: run.started_at.toISOString(),
            finished_at: run.finished_at?.toISOString() ?? null,
            rows_read: run.rows_read,
            rows_inserted: run.rows_inserted,
            rows_updated: run.rows_updated,
            rows_unchanged: run.rows_unchanged,
            rows_skipped: run.rows_skipped,
            rows_per_second: run.rows_per_second,
          }
        : null,
    };
  });
}

export interface CatalogueSourcesRoutesOptions {
  db: Queryable;
  sources: readonly IngestionSource<any, any>[];
}

/** GET /sources for a service whose sources are its datasets (news lists publishers there and adds these). */
export const catalogueSourcesRoutes: FastifyPluginAsyncTypebox<CatalogueSourcesRoutesOptions> = async (app, { db, sources }) => {
  app.get(
    "/sources",
    {
      schema: {
        summary: "Datasets and their ingestion",
        description: "Every dataset of the catalogue with its attribution and its latest ingestion run.",
        response: { 200: successSchema(Type.Object({ datasets: Type.Array(DatasetView) })) },
      },
    },
    async () => ok({ datasets: await datasetsView(db, sources) }),
  );
};
