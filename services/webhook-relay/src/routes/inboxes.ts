import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Readable } from "node:stream";
import { Type } from "typebox";
import { randomUUID } from "node:crypto";
import { cursorPage, errors, ok, serializeAsWritten, successSchema, type ServiceApp } from "@apiplat/service-kit";
import { decodeCursor, encodeCursor } from "../domain/cursor.js";
import { expiresAt, maxRequestsPerInbox, storageQuotaBytes } from "../domain/retention.js";
import { generateSigningSecret } from "@apiplat/webhook-delivery";
import { requireStorableText, settingsChange } from "./inbox-settings.js";
import { LIMITS } from "../domain/limits.js";
import type { Relay } from "../delivery/relay.js";
import { CaptureSchema, DeletedInboxSchema, InboxListSchema, InboxWithRequestsSchema, UpdatedInboxSchema } from "../schemas.js";
import {
  CreateInboxBody,
  emptyBodyAsObject,
  OwnerInboxSchema,
  InboxParams,
  PageQuery,
  RequestListQuery,
  RequestParams,
  UpdateInboxBody,
  type RequestListQueryInput,
} from "../schemas.js";
import { attemptsOf } from "../store/deliveries.js";
import { countLiveInboxes, deleteInbox, insertInbox, listInboxes, updateInboxSettings } from "../store/inboxes.js";
import { findRequest, listRequests, type RequestFilters } from "../store/requests.js";
import { toBuffer } from "../store/sql.js";
import { bodyParts, readBodyParts } from "../store/bodies.js";
import { attemptView, ownerInboxView, publicInboxView, requestView } from "./views.js";

export interface InboxRoutesOptions {
  relay: Relay;
  /** Base of the hook URLs handed out (see hooksUrlOf in settings.ts). */
  hooksUrl: string;
  maxInboxesPerAccount: number;
}

function cursorPosition(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  const position = decodeCursor(cursor);
  if (position === null) throw errors.validation("cursor", "must be a next_cursor returned by this endpoint");
  return position;
}

function parseInstant(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time)) throw errors.validation(field, "must be an ISO 8601 date-time");
  return new Date(time);
}

function requestFilters(query: RequestListQueryInput): RequestFilters {
  const since = parseInstant(query.since, "since");
  const until = parseInstant(query.until, "until");
  if (since && until && since >= until) throw errors.validation("until", "must be later than since");
  requireStorableText(query.q, "q");
  return { method: query.method, since, until, contains: query.q };
}

export const inboxRoutes: FastifyPluginAsyncTypebox<InboxRoutesOptions> = async (app, options) => {
  app.setSerializerCompiler(serializeAsWritten);
  createInboxRoute(app, options);
  listInboxesRoute(app, options);
  readInboxRoute(app, options);
  updateInboxRoute(app, options);
  deleteInboxRoute(app, options);
  readRequestRoute(app, options);
  rawBodyRoute(app, options);
};

function createInboxRoute(app: ServiceApp, { relay, hooksUrl, maxInboxesPerAccount }: InboxRoutesOptions): void {
  const { db, now } = relay.deps;
  app.post(
    "/create",
    {
      preValidation: emptyBodyAsObject,
      schema: {
        body: CreateInboxBody,
        summary: "Create an inbox (a hook URL)",
        description: "Answers 201 with the new inbox: its hook_url takes any request, which is captured until the inbox expires (the plan's retention).",
        response: { 201: successSchema(OwnerInboxSchema) },
      },
    },
    async (request, reply) => {
      const subscriber = request.subscriber;
      const createdAt = now();
      const change = settingsChange(request.body);
      if ((await countLiveInboxes(db, subscriber.accountId, createdAt)) >= maxInboxesPerAccount) {
        throw errors.conflict(`An account may hold at most ${maxInboxesPerAccount} live inboxes; delete one first.`);
      }
      const inbox = await insertInbox(db, {
        id: randomUUID(),
        accountId: subscriber.accountId,
        createdAt,
        expiresAt: expiresAt(createdAt, subscriber.plan),
        maxRequests: maxRequestsPerInbox(subscriber.plan),
        maxStoredBytes: storageQuotaBytes(subscriber.plan, relay.settings.storageQuotaBytes),
        signingSecret: generateSigningSecret(),
        settings: change,
      });
      return reply.code(201).send(ok(ownerInboxView(inbox, hooksUrl)));
    },
  );
}

function listInboxesRoute(app: ServiceApp, { hooksUrl, relay }: InboxRoutesOptions): void {
  const { db, now } = relay.deps;
  app.get(
    "/inboxes",
    {
      schema: {
        querystring: PageQuery,
        response: { 200: successSchema(InboxListSchema) },
        summary: "List the account's inboxes, newest first",
        description: "The account's live inboxes, newest first, a page at a time (limit and cursor).",
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const rows = await listInboxes(db, request.subscriber.accountId, now(), limit + 1, cursorPosition(cursor));
      const { page, nextCursor } = cursorPage(rows, limit, (last) => encodeCursor(last.seq));
      return ok({ inboxes: page.map((inbox) => ownerInboxView(inbox, hooksUrl)), next_cursor: nextCursor });
    },
  );
}

function readInboxRoute(app: ServiceApp, { relay, hooksUrl }: InboxRoutesOptions): void {
  const { db } = relay.deps;
  app.get(
    "/inbox/:id",
    {
      schema: {
        params: InboxParams,
        querystring: RequestListQuery,
        response: { 200: successSchema(InboxWithRequestsSchema) },
        summary: "An inbox and its captured requests, newest first",
        description:
          "The inbox (public view) and its captured requests, newest first, filtered by method, time (since, until) or text (q) and paged by cursor.",
      },
    },
    async (request) => {
      const { inbox, owner } = await relay.readableInbox(request, request.params.id);
      const { limit, cursor } = request.query;
      const rows = await listRequests(db, inbox.id, requestFilters(request.query), limit + 1, cursorPosition(cursor), LIMITS.inlineBodyBytes);
      const { page, nextCursor } = cursorPage(rows, limit, (last) => encodeCursor(last.seq));
      return ok({
        inbox: owner ? ownerInboxView(inbox, hooksUrl) : publicInboxView(inbox, hooksUrl),
        requests: page.map((row) => requestView(row, owner)),
        next_cursor: nextCursor,
      });
    },
  );
}

function updateInboxRoute(app: ServiceApp, { relay, hooksUrl }: InboxRoutesOptions): void {
  const { db } = relay.deps;
  app.patch(
    "/inbox/:id",
    {
      schema: {
        params: InboxParams,
        body: UpdateInboxBody,
        response: { 200: successSchema(UpdatedInboxSchema) },
        summary: "Change an inbox's settings",
        description: "Changes the default answer, CORS, Basic auth, IP allow-list or limits; fields left out keep their value.",
      },
    },
    async (request) => {
      const inbox = await relay.ownedInbox(request, request.params.id);
      const updated = await updateInboxSettings(db, inbox.id, settingsChange(request.body));
      await relay.inboxes.changed(inbox.id);
      return ok(ownerInboxView(updated, hooksUrl));
    },
  );
}

function deleteInboxRoute(app: ServiceApp, { relay }: InboxRoutesOptions): void {
  const { db } = relay.deps;
  app.delete(
    "/inbox/:id",
    {
      schema: {
        params: InboxParams,
        response: { 200: successSchema(DeletedInboxSchema) },
        summary: "Delete an inbox and everything it captured",
        description: "Deletes the inbox, its captured requests, their bodies and delivery attempts; its hook URL then answers 404.",
      },
    },
    async (request) => {
      const inbox = await relay.ownedInbox(request, request.params.id);
      await deleteInbox(db, inbox.id);
      await relay.inboxes.changed(inbox.id);
      return ok({ id: inbox.id, deleted: true });
    },
  );
}

function readRequestRoute(app: ServiceApp, { relay }: InboxRoutesOptions): void {
  const { db } = relay.deps;
  app.get(
    "/inbox/:id/requests/:request_id",
    {
      schema: {
        params: RequestParams,
        response: { 200: successSchema(CaptureSchema) },
        summary: "One captured request with its whole body and delivery attempts",
        description: "One captured request: method, path, query, headers, body (text or base64) and every forwarding attempt.",
      },
    },
    async (request) => {
      const { inbox, owner } = await relay.readableInbox(request, request.params.id);
      const found = await findRequest(db, inbox.id, request.params.request_id);
      if (!found) throw errors.notFound(`Inbox ${inbox.id} has no request ${request.params.request_id}.`);
      // Bodies kept in parts are shown up to the detail limit; a larger one only through /raw.
      const showParts = found.body === null && found.body_size <= LIMITS.detailBodyBytes;
      const row = showParts ? { ...found, body: await readBodyParts(db, found.id) } : found;
      // Attempts name the owner's destination and quote its answers: the owner's only.
      if (!owner) return ok(requestView(row, false));
      const attempts = await attemptsOf(db, row.id);
      return ok({ ...requestView(row, true), attempts: attempts.map(attemptView) });
    },
  );
}

function rawBodyRoute(app: ServiceApp, { relay }: InboxRoutesOptions): void {
  const { db } = relay.deps;
  app.get(
    "/inbox/:id/requests/:request_id/raw",
    {
      schema: {
        params: RequestParams,
        response: {
          200: {
            description: "The captured body, with the Content-Type the sender gave",
            content: { "*/*": { schema: Type.Unsafe<unknown>({ type: "string", format: "binary" }) } },
          },
        },
        summary: "The body of a captured request, byte for byte, with its Content-Type",
        description: "The captured body exactly as received, with the Content-Type the sender gave.",
      },
    },
    async (request, reply) => {
      const { inbox } = await relay.readableInbox(request, request.params.id);
      const row = await findRequest(db, inbox.id, request.params.request_id);
      if (!row) throw errors.notFound(`Inbox ${inbox.id} has no request ${request.params.request_id}.`);
      reply
        .type(row.content_type ?? "application/octet-stream")
        .header("content-disposition", "attachment")
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "sandbox");
      if (row.body !== null) return reply.send(toBuffer(row.body));
      // A large body goes out part by part, never whole in memory.
      return reply.header("content-length", String(row.body_size)).send(Readable.from(bodyParts(db, row.id)));
    },
  );
}
