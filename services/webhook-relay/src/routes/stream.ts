import type { ServerResponse } from "node:http";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { parseLastEventId, sseComment, sseEvent, sseRetry } from "../domain/sse.js";
import { LIMITS } from "../domain/limits.js";
import type { Relay } from "../delivery/relay.js";
import { Type } from "typebox";
import { InboxParams, StreamQuery } from "../schemas.js";
import { findLiveInbox } from "../store/inboxes.js";
import { requestsAfter } from "../store/requests.js";
import type { CaptureEvent } from "../delivery/capture-feed.js";
import { captureView, deliveryView } from "./views.js";

const RECONNECT_DELAY_MS = 3_000;

/**
 * GET /inbox/:id/stream: Server-Sent Events, one `request` event per capture, its id the capture's
 * position. A client reconnecting with Last-Event-ID first gets what it missed, then the live feed.
 */
export const streamRoutes: FastifyPluginAsyncTypebox<{ relay: Relay }> = async (app, options) => {
  const { relay } = options;
  const open = new Set<ServerResponse>();
  app.addHook("preClose", async () => {
    for (const response of open) response.end();
  });

  app.get(
    "/inbox/:id/stream",
    {
      schema: {
        params: InboxParams,
        querystring: StreamQuery,
        response: {
          200: {
            description: "Server-Sent Events: retry, then one `request` event per capture (data: the capture as JSON)",
            content: { "text/event-stream": { schema: Type.String() } },
          },
        },
        summary: "Captured requests as Server-Sent Events, live",
        description:
          "An event stream (text/event-stream): one event per captured request as it arrives, keep-alive comments between them; Last-Event-ID resumes.",
      },
    },
    async (request, reply) => {
      const { inbox, owner } = await relay.readableInbox(request, request.params.id);
      const header = request.headers["last-event-id"];
      const resumeFrom = parseLastEventId((Array.isArray(header) ? header[0] : header) ?? request.query.last_event_id);

      reply.hijack();
      const response = reply.raw;
      response.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      response.write(sseRetry(RECONNECT_DELAY_MS));
      open.add(response);

      const write = (text: string) => {
        if (!response.writableEnded) response.write(text);
      };
      const endWith = (text: string) => {
        if (!response.writableEnded) response.end(text);
      };
      // Readers other than the owner see captures only, never where or how the owner forwards them.
      const view = (event: CaptureEvent) => (owner ? { ...event.capture, forwarding: event.forwarding } : event.capture);
      const send = (event: CaptureEvent) => write(sseEvent(String(event.seq), "request", JSON.stringify(view(event))));
      // Live events that arrive while the backlog is being sent wait, so that order is kept.
      let backlogSent: Set<number> | null = resumeFrom === null ? null : new Set();
      const waiting: CaptureEvent[] = [];
      let unsubscribe: (() => Promise<void>) | null = null;
      let closed = false;
      // Each keep-alive also checks that the inbox still exists: a deleted or expired inbox ends its streams.
      const keepAlive = setInterval(() => {
        findLiveInbox(relay.deps.db, inbox.id, relay.deps.now()).then(
          (live) => (live ? write(sseComment("keep-alive")) : endWith(sseComment("inbox gone"))),
          (error) => request.log.warn({ err: error }, "checking a streamed inbox failed"),
        );
      }, relay.settings.keepAliveMs);
      response.on("close", () => {
        closed = true;
        clearInterval(keepAlive);
        open.delete(response);
        if (unsubscribe) void unsubscribe();
      });

      try {
        unsubscribe = await relay.feed.listen(inbox.id, (event) => {
          if (backlogSent === null) send(event);
          else waiting.push(event);
        });
        if (closed) return void unsubscribe();
        if (backlogSent !== null && resumeFrom !== null) {
          const missed = await requestsAfter(relay.deps.db, inbox.id, resumeFrom, LIMITS.resumeBacklog, LIMITS.inlineBodyBytes);
          for (const row of missed) {
            backlogSent.add(row.seq);
            send({ seq: row.seq, capture: captureView(row), forwarding: deliveryView(row) });
          }
          for (const event of waiting) if (!backlogSent.has(event.seq)) send(event);
          backlogSent = null;
        }
        write(sseComment("live"));
      } catch (error) {
        request.log.error({ err: error }, "opening the capture stream failed");
        response.end();
      }
    },
  );
};
