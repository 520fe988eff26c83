import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { cursorPage, errors, ok, successSchema, type ServiceApp } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { newEventId } from "../delivery/events.js";
import * as S from "../schemas.js";
import { cancelScheduled, findMessage, listEvents, listMessages } from "../store/messages.js";
import { eventView, messageSummary } from "./views.js";

export interface MessageRoutesOptions {
  db: Database;
  now: () => Date;
  onEvent: () => void;
}

function encodeCursor(submittedAt: Date, id: string): string {
  return Buffer.from(`${submittedAt.toISOString()}|${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { submittedAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const submittedAt = new Date(at);
  if (!id || Number.isNaN(submittedAt.getTime())) throw errors.validation("cursor", "is not a cursor this API returned");
  return { submittedAt, id };
}

export const messageRoutes: FastifyPluginAsyncTypebox<MessageRoutesOptions> = async (app, options) => {
  listMessagesRoute(app, options);
  readMessageRoute(app, options);
  cancelMessageRoute(app, options);
};

function listMessagesRoute(app: ServiceApp, { db }: MessageRoutesOptions): void {
  app.get(
    "/messages",
    {
      schema: {
        summary: "List messages",
        description: "Newest first, filtered by status, tag, recipient and submission time; pages through next_cursor.",
        querystring: S.MessageQuery,
        response: { 200: successSchema(S.MessageList) },
      },
    },
    async (request) => {
      const q = request.query;
      const limit = q.limit ?? 20;
      const rows = await listMessages(db, request.subscriber.accountId, {
        status: q.status,
        tag: q.tag,
        recipient: q.recipient,
        after: q.submitted_after ? new Date(q.submitted_after) : undefined,
        before: q.submitted_before ? new Date(q.submitted_before) : undefined,
        cursor: q.cursor ? decodeCursor(q.cursor) : undefined,
        limit: limit + 1,
      });
      const { page, nextCursor } = cursorPage(rows, limit, (last) => encodeCursor(last.submitted_at, last.id));
      return ok({ messages: page.map(messageSummary), next_cursor: nextCursor });
    },
  );
}

function readMessageRoute(app: ServiceApp, { db }: MessageRoutesOptions): void {
  app.get(
    "/messages/:id",
    {
      schema: {
        summary: "Read a message with its event history",
        description: "The message, its current status and every event (time, type, recipient, detail) in order.",
        params: S.MessageParams,
        response: { 200: successSchema(S.MessageDetail) },
      },
    },
    async (request) => {
      const row = await findMessage(db, request.subscriber.accountId, request.params.id);
      if (!row) throw errors.notFound(`No message ${request.params.id}.`);
      const events = await listEvents(db, row.id);
      return ok({ ...messageSummary(row), events: events.map(eventView) });
    },
  );
}

function cancelMessageRoute(app: ServiceApp, { db, now, onEvent }: MessageRoutesOptions): void {
  app.post(
    "/messages/:id/cancel",
    {
      schema: {
        summary: "Cancel a scheduled message",
        description: "A message scheduled with send_at can be cancelled until its delivery starts; after that the answer is 409.",
        params: S.MessageParams,
        response: { 200: successSchema(S.MessageSummary) },
      },
    },
    async (request) => {
      const accountId = request.subscriber.accountId;
      const row = await findMessage(db, accountId, request.params.id);
      if (!row) throw errors.notFound(`No message ${request.params.id}.`);
      if (!(await cancelScheduled(db, accountId, row.id, newEventId(), now()))) {
        const current = (await findMessage(db, accountId, row.id))!;
        if (current.status === "cancelled") return ok(messageSummary(current));
        throw errors.conflict(`Message ${row.id} is ${current.status}: only a scheduled message that has not started sending can be cancelled.`);
      }
      onEvent();
      return ok(messageSummary((await findMessage(db, accountId, row.id))!));
    },
  );
}
