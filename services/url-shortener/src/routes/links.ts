import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ApiError, errors, ok, successSchema } from "@apiplat/service-kit";
import { Type } from "typebox";
import { parseBulkItem } from "../links/bulk-items.js";
import type { ShortenerCore } from "../links/shortener-core.js";
import { linkStats, linkSummary } from "../links/stats-service.js";
import { linkView } from "../links/views.js";
import { listOwnedLinks, softDeleteLink } from "../store/links.js";
import {
  BulkBodySchema,
  CodeParams,
  DomainQuery,
  LinkInputSchema,
  LinkPatchSchema,
  LinkSchema,
  ListQuerySchema,
  MAX_BULK_ITEMS,
  MAX_BULK_ITEMS_BASIC,
  StatsQuerySchema,
  StatsSchema,
  SummarySchema,
} from "../schemas.js";

const BulkResultSchema = Type.Object({
  results: Type.Array(
    Type.Object({
      index: Type.Integer(),
      status: Type.Union([Type.Literal("created"), Type.Literal("error")]),
      link: Type.Optional(LinkSchema),
      error: Type.Optional(
        Type.Object({
          status: Type.Integer(),
          code: Type.String(),
          message: Type.String(),
          details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), issue: Type.String() }))),
        }),
      ),
    }),
  ),
  created: Type.Integer(),
  failed: Type.Integer(),
});

export const linkRoutes: FastifyPluginAsyncTypebox<ShortenerCore> = async (app, core) => {
  const { settings } = core;

  app.post(
    "/shorten",
    { schema: { summary: "Create a short link", body: LinkInputSchema, response: { 201: successSchema(LinkSchema) } } },
    async (request, reply) => {
      const row = await core.linkService.create(request.subscriber, request.body);
      reply.code(201);
      return ok(linkView(row, settings, core.now()));
    },
  );

  app.post(
    "/bulk",
    {
      schema: {
        summary: `Create up to ${MAX_BULK_ITEMS} links (${MAX_BULK_ITEMS_BASIC} on BASIC); one result per item, in order`,
        body: BulkBodySchema,
        response: { 200: successSchema(BulkResultSchema) },
      },
    },
    async (request) => {
      const { urls } = request.body;
      if (request.subscriber.plan === "BASIC" && urls.length > MAX_BULK_ITEMS_BASIC) {
        throw errors.validation("urls", `must have at most ${MAX_BULK_ITEMS_BASIC} items on the BASIC plan (${MAX_BULK_ITEMS} on PRO, ULTRA and MEGA)`);
      }
      const parsed = urls.map(parseBulkItem);
      const valid = parsed.filter((item) => !(item instanceof ApiError));
      const created = await core.linkService.createMany(request.subscriber, valid as Exclude<(typeof parsed)[number], ApiError>[]);
      const now = core.now();
      let next = 0;
      const results = parsed.map((item, index) => {
        const outcome = item instanceof ApiError ? item : created[next++];
        if (outcome instanceof ApiError) {
          const error = { status: outcome.statusCode, code: outcome.code, message: outcome.message, details: outcome.details };
          return { index, status: "error" as const, error };
        }
        return { index, status: "created" as const, link: linkView(outcome, settings, now) };
      });
      const createdCount = results.filter((r) => r.status === "created").length;
      return ok({ results, created: createdCount, failed: results.length - createdCount });
    },
  );

  app.get(
    "/resolve/:code",
    {
      schema: {
        summary: "The original URL of a link, its state and a stats summary",
        params: CodeParams,
        querystring: DomainQuery,
        response: { 200: successSchema(Type.Intersect([LinkSchema, Type.Object({ stats: SummarySchema })])) },
      },
    },
    async (request) => {
      await core.clicks.flush();
      const link = await core.ownedLink(request.subscriber.accountId, request.query.domain, request.params.code);
      return ok({ ...linkView(link, settings, core.now()), stats: await linkSummary(core.db, link) });
    },
  );

  app.get(
    "/stats/:code",
    {
      schema: {
        summary: "Click statistics of a link: totals, breakdowns and a daily series over a time window",
        params: CodeParams,
        querystring: StatsQuerySchema,
        response: { 200: successSchema(StatsSchema) },
      },
    },
    async (request) => {
      const link = await core.ownedLink(request.subscriber.accountId, request.query.domain, request.params.code);
      await core.clicks.flush();
      const stats = await linkStats(core.db, link, request.query, core.now());
      return ok({ code: link.code, domain: linkView(link, settings, core.now()).domain, ...stats });
    },
  );

  app.get(
    "/links",
    {
      schema: {
        summary: "The account's links, newest first, cursor-paginated",
        querystring: ListQuerySchema,
        response: { 200: successSchema(Type.Object({ links: Type.Array(LinkSchema), next_cursor: Type.Union([Type.String(), Type.Null()]) })) },
      },
    },
    async (request) => {
      const { limit, cursor, include_deleted } = request.query;
      const beforeId = cursor === undefined ? null : decodeCursor(cursor);
      const rows = await listOwnedLinks(core.db, request.subscriber.accountId, { limit: limit + 1, beforeId, includeDeleted: include_deleted });
      const page = rows.slice(0, limit);
      const now = core.now();
      const nextCursor = rows.length > limit ? encodeCursor(page[page.length - 1].id) : null;
      return ok({ links: page.map((row) => linkView(row, settings, now)), next_cursor: nextCursor });
    },
  );

  app.patch(
    "/links/:code",
    {
      schema: {
        summary: "Change a link's url, expires_at, max_clicks, fallback_url or redirect_type (null removes a limit)",
        params: CodeParams,
        querystring: DomainQuery,
        body: LinkPatchSchema,
        response: { 200: successSchema(LinkSchema) },
      },
    },
    async (request) => {
      // Clicks still waiting must reach the counter first, or a new max_clicks could be judged on a stale count.
      await core.clicks.flush();
      const link = await core.ownedLink(request.subscriber.accountId, request.query.domain, request.params.code);
      const updated = await core.linkService.update(link, request.body);
      return ok(linkView(updated, settings, core.now()));
    },
  );

  app.delete(
    "/links/:code",
    {
      schema: {
        summary: "Delete a link: it stops redirecting (its fallback applies) and its code is never reused",
        params: CodeParams,
        querystring: DomainQuery,
        response: { 200: successSchema(LinkSchema) },
      },
    },
    async (request) => {
      const link = await core.ownedLink(request.subscriber.accountId, request.query.domain, request.params.code);
      const deleted = await softDeleteLink(core.db, link.id, core.now());
      if (!deleted) throw errors.notFound(`The link ${request.params.code} is already deleted.`);
      await core.links.invalidate(deleted.domain, deleted.code);
      return ok(linkView(deleted, settings, core.now()));
    },
  );
};

function encodeCursor(id: number): string {
  return Buffer.from(`id:${id}`).toString("base64url");
}

function decodeCursor(cursor: string): number {
  const match = /^id:(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw errors.validation("cursor", "must be a next_cursor value returned by GET /links");
  return Number(match[1]);
}
