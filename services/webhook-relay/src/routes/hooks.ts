import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError, errors, ok, type ServiceApp } from "@apiplat/service-kit";
import { credentialsMatch, parseBasicAuthorization } from "../domain/basic-auth.js";
import { headerEntries, headerValue, hookTarget, type HeaderEntry } from "../domain/captured-request.js";
import { clientIp } from "../domain/client-ip.js";
import { corsHeaders, isPreflight } from "../domain/cors.js";
import { isIpAllowed } from "../domain/ip-allowlist.js";
import { LIMITS } from "../limits.js";
import type { Relay } from "../relay.js";
import type { NewCapture, RequestRow, StoredCapture } from "../store/requests.js";
import { isForeignKeyViolation, toBuffer } from "../store/sql.js";
import type { InboxRow } from "../store/inboxes.js";
import type { DeliveryJob } from "../store/deliveries.js";
import { requestView } from "../views.js";

/** Where hook URLs live on the service host: /h/<inbox id>, and any sub-path below it. */
export const HOOK_PREFIX = "/h";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CAPTURED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];

export interface HookRoutesOptions {
  relay: Relay;
  maxBodyBytes: number;
}

function tooLarge(limit: number): ApiError {
  return errors.payloadTooLarge("body", `must be at most ${limit} bytes`);
}

/** Fastify leaves GET and HEAD bodies unread; a hook keeps them too. */
async function readUnparsedBody(request: FastifyRequest, limit: number): Promise<Buffer> {
  const declared = Number(request.headers["content-length"] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  if (declared === 0 && request.headers["transfer-encoding"] === undefined) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function refuseUnlessAllowed(inbox: InboxRow, sourceIp: string, headers: HeaderEntry[]): void {
  if (inbox.ip_allowlist.length > 0 && !isIpAllowed(sourceIp, inbox.ip_allowlist)) {
    throw errors.forbidden("IP_NOT_ALLOWED", `This inbox accepts requests only from its IP allow-list; ${sourceIp} is not on it.`);
  }
  if (inbox.basic_auth_username !== null && inbox.basic_auth_salt && inbox.basic_auth_hash) {
    const stored = { username: inbox.basic_auth_username, salt: toBuffer(inbox.basic_auth_salt), hash: toBuffer(inbox.basic_auth_hash) };
    if (!credentialsMatch(parseBasicAuthorization(headerValue(headers, "authorization")), stored)) {
      throw new ApiError(401, "INBOX_CREDENTIALS_REQUIRED", "This inbox is private: send its Basic credentials in Authorization.", undefined, {
        "www-authenticate": 'Basic realm="webhook-relay", charset="UTF-8"',
      });
    }
  }
}

/** The capture as readers see it, built from what was just stored (no second read). */
function capturedRow(capture: NewCapture, stored: StoredCapture, inbox: InboxRow): RequestRow {
  return {
    seq: stored.seq,
    id: capture.id,
    inbox_id: inbox.id,
    received_at: capture.receivedAt,
    method: capture.method,
    path: capture.path,
    query_string: capture.queryString,
    headers: capture.headers,
    body: capture.body.length <= LIMITS.inlineBodyBytes ? capture.body : null,
    body_size: capture.body.length,
    content_type: capture.contentType,
    source_ip: capture.sourceIp,
    delivery_state: stored.queued ? "pending" : null,
    delivery_attempts: stored.queued ? 0 : null,
    delivery_next_attempt_at: stored.queued ? capture.receivedAt : null,
    delivery_url: stored.queued ? inbox.forward_url : null,
  };
}

/** The delivery job of a capture this process claimed at storage time. */
function firstAttempt(capture: NewCapture, inbox: InboxRow, deliveryId: number): DeliveryJob {
  return {
    delivery_id: deliveryId,
    request_id: capture.id,
    destination_url: inbox.forward_url!,
    attempt: 1,
    method: capture.method,
    path: capture.path,
    query_string: capture.queryString,
    headers: capture.headers,
    body: capture.body,
    signing_secret: inbox.signing_secret,
    previous_signing_secret: inbox.previous_signing_secret,
    previous_secret_expires_at: inbox.previous_secret_expires_at,
    has_basic_auth: inbox.basic_auth_username !== null,
  };
}

function answer(reply: FastifyReply, inbox: InboxRow, row: RequestRow, headers: HeaderEntry[]) {
  reply.header("x-webhook-request-id", row.id);
  if (inbox.cors) reply.headers(corsHeaders(headers));
  if (inbox.cors && isPreflight(row.method, headers)) return reply.code(204).send();
  if (inbox.response_status !== null) {
    return reply
      .code(inbox.response_status)
      .type(inbox.response_content_type ?? "text/plain; charset=utf-8")
      .send(inbox.response_body ?? "");
  }
  return reply.code(200).send(ok({ inbox_id: inbox.id, request_id: row.id }));
}

/**
 * The public hook URL: captures any method and sub-path, body bytes exactly as sent. Registered in a
 * plugin of its own so that its catch-all body parser does not replace the JSON API's parsers.
 */
export async function hookRoutes(app: ServiceApp, options: HookRoutesOptions): Promise<void> {
  const { relay, maxBodyBytes } = options;
  const { now } = relay.deps;
  // The platform's handler cannot know this route's limit; say it, and leave every other error to it.
  app.setErrorHandler((error: { code?: string }) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw tooLarge(maxBodyBytes);
    throw error;
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: maxBodyBytes }, (_request, body, done) => done(null, body));

  const capture = async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const inboxId = request.params.id;
    if (!UUID.test(inboxId)) throw errors.notFound(`There is no inbox ${inboxId}.`);
    const inbox = await relay.inboxes.get(inboxId);
    if (!inbox) throw errors.notFound(`There is no inbox ${inboxId}, or it has expired.`);
    const headers = headerEntries(request.raw.rawHeaders);
    const sourceIp = clientIp(request.raw.socket.remoteAddress ?? "", request.headers["x-forwarded-for"] as string | undefined, relay.settings.trustedProxies);
    refuseUnlessAllowed(inbox, sourceIp, headers);
    const body = Buffer.isBuffer(request.body) ? request.body : await readUnparsedBody(request, maxBodyBytes);
    const target = hookTarget(request.raw.url ?? request.url, `${HOOK_PREFIX}/${inboxId}`);
    const capture: NewCapture = {
      id: randomUUID(),
      inboxId: inbox.id,
      receivedAt: now(),
      method: request.method,
      path: target.path,
      queryString: target.queryString,
      headers,
      body,
      contentType: headerValue(headers, "content-type") ?? null,
      sourceIp,
    };
    const stored = await store(capture, inbox);
    const row = capturedRow(capture, stored, inbox);
    relay.announce(inbox.id, { seq: stored.seq, request: requestView(row) });
    return answer(reply, inbox, row, headers);
  };

  /**
   * Stores the capture; when the inbox forwards and the worker has room, the delivery is stored already
   * claimed by this process and handed straight to the worker, saving the worker a query.
   */
  const store = async (capture: NewCapture, inbox: InboxRow) => {
    const claimed = inbox.forward_url !== null && relay.worker.reserve();
    try {
      const stored = await relay.captures.write({
        capture,
        forwardUrl: inbox.forward_url,
        claimedUntil: claimed ? relay.worker.claimUntil(now()) : null,
      });
      if (claimed) relay.worker.release(stored.delivery_id === null ? null : firstAttempt(capture, inbox, stored.delivery_id));
      else if (stored.queued) relay.worker.wake();
      return stored;
    } catch (error) {
      if (claimed) relay.worker.release(null);
      if (isForeignKeyViolation(error)) throw errors.notFound(`There is no inbox ${inbox.id}.`);
      throw error;
    }
  };

  const handler = (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => relay.track(capture(request, reply));
  const route = { method: CAPTURED_METHODS, config: { public: true }, handler };
  const documented = {
    summary: "The hook URL (public, no gateway key): captures any method, any sub-path below it, any body up to 10 MiB",
    security: [],
  };
  app.route({ ...route, url: `${HOOK_PREFIX}/:id`, schema: documented });
  app.route({ ...route, url: `${HOOK_PREFIX}/:id/*`, schema: { hide: true } });
}
