import type { ServerResponse } from "node:http";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { FastifyBaseLogger, FastifyReply } from "fastify";
import type { ServiceApp } from "@apiplat/service-kit";
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
export const streamRoutes: FastifyPluginAsyncTypebox<{ relay: Relay }> = async (app, { relay }) => {
  const open = new Set<ServerResponse>();
  app.addHook("preClose", async () => {
    for (const response of open) response.end();
  });
  streamRoute(app, relay, open);
};

function streamRoute(app: ServiceApp, relay: Relay, open: Set<ServerResponse>): void {
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
      const response = startEventStream(reply);
      open.add(response);
      response.on("close", () => open.delete(response));
      await streamCaptures(relay, request.log, response, { inboxId: inbox.id, owner, resumeFrom });
    },
  );
}

/** Takes the reply over and opens the event stream on it. */
function startEventStream(reply: FastifyReply): ServerResponse {
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
  return response;
}

interface StreamRequest {
  inboxId: string;
  /** Readers other than the owner see captures only, never where or how the owner forwards them. */
  owner: boolean;
  /** The last position the client saw (Last-Event-ID), or null for the live feed only. */
  resumeFrom: number | null;
}

/** Sends what the client missed, then the inbox's live feed, until either side closes. */
async function streamCaptures(relay: Relay, log: FastifyBaseLogger, response: ServerResponse, { inboxId, owner, resumeFrom }: StreamRequest) {
  const write = (text: string) => {
    if (!response.writableEnded) response.write(text);
  };
  const view = (event: CaptureEvent) => (owner ? { ...event.capture, forwarding: event.forwarding } : event.capture);
  const send = (event: CaptureEvent) => write(sseEvent(String(event.seq), "request", JSON.stringify(view(event))));
  // Live events that arrive while the backlog is being sent wait, so that order is kept.
  let waiting: CaptureEvent[] | null = resumeFrom === null ? null : [];
  let unsubscribe: (() => Promise<void>) | null = null;
  let closed = false;
  const keepAlive = keepAliveWhileInboxLives(relay, inboxId, log, response);
  response.on("close", () => {
    closed = true;
    clearInterval(keepAlive);
    if (unsubscribe) void unsubscribe();
  });

  try {
    unsubscribe = await relay.feed.listen(inboxId, (event) => {
      if (waiting === null) send(event);
      else waiting.push(event);
    });
    if (closed) return void unsubscribe();
    if (waiting !== null && resumeFrom !== null) {
      const missed = await missedCaptures(relay, inboxId, resumeFrom);
      for (const event of missed) send(event);
      const sent = new Set(missed.map((event) => event.seq));
      for (const event of waiting) if (!sent.has(event.seq)) send(event);
      waiting = null;
    }
    write(sseComment("live"));
  } catch (error) {
    log.error({ err: error }, "opening the capture stream failed");
    response.end();
  }
}

async function missedCaptures(relay: Relay, inboxId: string, after: number): Promise<CaptureEvent[]> {
  const rows = await requestsAfter(relay.deps.db, inboxId, after, LIMITS.resumeBacklog, LIMITS.inlineBodyBytes);
  return rows.map((row) => ({ seq: row.seq, capture: captureView(row), forwarding: deliveryView(row) }));
}

/** Each keep-alive also checks that the inbox still exists: a deleted or expired inbox ends its streams. */
function keepAliveWhileInboxLives(relay: Relay, inboxId: string, log: FastifyBaseLogger, response: ServerResponse): NodeJS.Timeout {
  return setInterval(() => {
    findLiveInbox(relay.deps.db, inboxId, relay.deps.now()).then(
      (live) => {
        if (response.writableEnded) return;
        if (live) response.write(sseComment("keep-alive"));
        else response.end(sseComment("inbox gone"));
      },
      (error) => log.warn({ err: error }, "checking a streamed inbox failed"),
    );
  }, relay.settings.keepAliveMs);
}
