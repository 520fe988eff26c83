import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { ApiError, cursorPage, errors, ok, successSchema, type ServiceApp } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { Type } from "typebox";
import type { Caller, LinkInput, LinkService } from "../app/link-service.js";
import { linkStats, linkSummary } from "../app/link-stats.js";
import { ownedLink } from "../app/owned-link.js";
import type { ClickRecorder } from "../engine/click-recorder.js";
import type { ShortenerSettings } from "../settings.js";
import { listOwnedLinks, type LinkRow } from "../store/links.js";
import { parseBulkItem } from "./bulk-items.js";
import { linkView } from "./views.js";
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

export interface LinkRoutesOptions {
  db: Database;
  settings: ShortenerSettings;
  now: () => Date;
  linkService: LinkService;
  /** Flushed before a link's counts are read or judged, so that clicks still buffered are counted. */
  clicks: ClickRecorder;
}

export const linkRoutes: FastifyPluginAsyncTypebox<LinkRoutesOptions> = async (app, options) => {
  shortenRoute(app, options);
  bulkRoute(app, options);
  resolveRoute(app, options);
  statsRoute(app, options);
  listRoute(app, options);
  updateRoute(app, options);
  deleteRoute(app, options);
};

function shortenRoute(app: ServiceApp, { settings, now, linkService }: LinkRoutesOptions): void {
  app.post(
    "/shorten",
    { schema: { summary: "Create a short link", body: LinkInputSchema, response: { 201: successSchema(LinkSchema) } } },
    async (request, reply) => {
      const row = await linkService.create(request.subscriber, request.body);
      reply.code(201);
      return ok(linkView(row, settings, now()));
    },
  );
}

function bulkRoute(app: ServiceApp, { settings, now, linkService }: LinkRoutesOptions): void {
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
      const outcomes = await createBulk(linkService, request.subscriber, urls);
      const at = now();
      const results = outcomes.map((outcome, index) => bulkResult(outcome, index, settings, at));
      const createdCount = results.filter((r) => r.status === "created").length;
      return ok({ results, created: createdCount, failed: results.length - createdCount });
    },
  );
}

/** One outcome per item, in order: items that fail their own validation are never sent to the link service. */
async function createBulk(linkService: LinkService, caller: Caller, urls: readonly unknown[]): Promise<Array<LinkRow | ApiError>> {
  const parsed = urls.map(parseBulkItem);
  const valid = parsed.filter((item): item is LinkInput => !(item instanceof ApiError));
  const created = await linkService.createMany(caller, valid);
  let next = 0;
  return parsed.map((item) => (item instanceof ApiError ? item : created[next++]));
}

function bulkResult(outcome: LinkRow | ApiError, index: number, settings: ShortenerSettings, now: Date) {
  if (outcome instanceof ApiError) {
    const error = { status: outcome.statusCode, code: outcome.code, message: outcome.message, details: outcome.details };
    return { index, status: "error" as const, error };
  }
  return { index, status: "created" as const, link: linkView(outcome, settings, now) };
}

function resolveRoute(app: ServiceApp, { db, settings, now, clicks }: LinkRoutesOptions): void {
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
      await clicks.flush();
      const link = await ownedLink(db, settings, request.subscriber.accountId, request.query.domain, request.params.code);
      return ok({ ...linkView(link, settings, now()), stats: await linkSummary(db, link) });
    },
  );
}

function statsRoute(app: ServiceApp, { db, settings, now, clicks }: LinkRoutesOptions): void {
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
      const link = await ownedLink(db, settings, request.subscriber.accountId, request.query.domain, request.params.code);
      await clicks.flush();
      const stats = await linkStats(db, link, request.query, now());
      return ok({ code: link.code, domain: linkView(link, settings, now()).domain, ...stats });
    },
  );
}

function listRoute(app: ServiceApp, { db, settings, now }: LinkRoutesOptions): void {
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
      const rows = await listOwnedLinks(db, request.subscriber.accountId, { limit: limit + 1, beforeId, includeDeleted: include_deleted });
      const { page, nextCursor } = cursorPage(rows, limit, (last) => encodeCursor(last.id));
      const at = now();
      return ok({ links: page.map((row) => linkView(row, settings, at)), next_cursor: nextCursor });
    },
  );
}

function updateRoute(app: ServiceApp, { db, settings, now, linkService, clicks }: LinkRoutesOptions): void {
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
      await clicks.flush();
      const link = await ownedLink(db, settings, request.subscriber.accountId, request.query.domain, request.params.code);
      const updated = await linkService.update(link, request.body);
      return ok(linkView(updated, settings, now()));
    },
  );
}

function deleteRoute(app: ServiceApp, { db, settings, now, linkService }: LinkRoutesOptions): void {
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
      const link = await ownedLink(db, settings, request.subscriber.accountId, request.query.domain, request.params.code);
      const deleted = await linkService.remove(link);
      if (!deleted) throw errors.notFound(`The link ${request.params.code} is already deleted.`);
      return ok(linkView(deleted, settings, now()));
    },
  );
}

function encodeCursor(id: number): string {
  return Buffer.from(`id:${id}`).toString("base64url");
}

function decodeCursor(cursor: string): number {
  const match = /^id:(\d{1,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match) throw errors.validation("cursor", "must be a next_cursor value returned by GET /links");
  return Number(match[1]);
}
