import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError, errors, ok, serializeAsWritten, successSchema, type RateLimit, type ServiceApp } from "@apiplat/service-kit";
import { credentialsMatch, parseBasicAuthorization } from "../domain/basic-auth.js";
import { headerEntries, headerValue, hookTarget, storedBytes, type HeaderEntry } from "../domain/captured-request.js";
import { displayIp } from "../domain/client-ip.js";
import { corsHeaders, isPreflight } from "../domain/cors.js";
import { isIpAllowed } from "../domain/ip-allowlist.js";
import { LIMITS } from "../domain/limits.js";
import type { Relay } from "../delivery/relay.js";
import type { NewCapture, RequestRow, StoredCapture } from "../store/requests.js";
import { isForeignKeyViolation, toBuffer } from "../store/sql.js";
import type { InboxRow } from "../store/inboxes.js";
import type { DeliveryJob } from "../store/deliveries.js";
import { captureView, deliveryView } from "./views.js";
import { CaptureReceiptSchema } from "../schemas.js";

/** Where hook URLs live on the service host: /h/<inbox id>, and any sub-path below it. */
const HOOK_PREFIX = "/h";

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

function rateLimited(limit: RateLimit, retryAfterSeconds: number): ApiError {
  const issue = `at most ${limit.perSecond} captures per second (bursts of ${limit.burst})`;
  return new ApiError(429, "RATE_LIMITED", `This inbox accepts ${issue}; retry after ${retryAfterSeconds} second(s).`, [{ field: "inbox", issue }], {
    "retry-after": String(retryAfterSeconds),
  });
}

function storageFull(inbox: InboxRow, bytes: number): ApiError {
  const issue = `does not fit: the inbox owner's account keeps at most ${inbox.max_stored_bytes} bytes of captures`;
  return new ApiError(
    507,
    "STORAGE_QUOTA_EXCEEDED",
    `This capture (${bytes} bytes with its headers) ${issue}; space comes back as captures expire or are deleted.`,
    [{ field: "body", issue }],
  );
}

/** The capture as readers see it, built from what was just stored (no second read). */
function capturedRow(capture: NewCapture, seq: number, stored: StoredCapture, inbox: InboxRow): RequestRow {
  return {
    seq,
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
 * On every answer of a hook, whatever the inbox's default response says: a page served from a hook
 * runs sandboxed (no script, no same-origin access: an opaque origin) and is never sniffed into HTML.
 */
const HOOK_ANSWER_HEADERS = {
  "content-security-policy": "sandbox",
  "x-content-type-options": "nosniff",
} as const;

/** What the route config of a hook says: where the inbox id sits in the path. */
interface HookRouteConfig {
  public: true;
  hook: true;
  /** "/h" on every host, "" on the hooks host (hooks.example.com/<id>). */
  prefix: string;
}

/**
 * The public hook URL: captures any method and sub-path, body bytes exactly as sent. Registered in a
 * plugin of its own so that its catch-all body parser does not replace the JSON API's parsers.
 */
export const hookRoutes: FastifyPluginAsyncTypebox<HookRoutesOptions> = async (app, options) => {
  takeBodiesAsSent(app, options.maxBodyBytes);
  hookRoute(app, options);
};

/** Bodies of any type as raw bytes up to the hook's limit, answers as written, with the hook's own headers. */
function takeBodiesAsSent(app: ServiceApp, maxBodyBytes: number): void {
  app.setSerializerCompiler(serializeAsWritten);
  // The platform's handler cannot know this route's limit; say it, and leave every other error to it.
  app.setErrorHandler((error: { code?: string }) => {
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") throw tooLarge(maxBodyBytes);
    throw error;
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: maxBodyBytes }, (_request, body, done) => done(null, body));
  app.addHook("onSend", (_request, reply, payload, done) => {
    reply.headers(HOOK_ANSWER_HEADERS);
    done(null, payload);
  });
}

type HookRequest = FastifyRequest<{ Params: { id: string } }>;

/** /h/<id> and /h/<id>/<sub-path>, and /<id> and /<id>/<sub-path> on the hooks host when there is one. */
function hookRoute(app: ServiceApp, { relay, maxBodyBytes }: HookRoutesOptions): void {
  // What admission learned, for the handler of the same request.
  const admissions = new WeakMap<FastifyRequest, Admission>();
  const hookUrl = (prefix: string) => ({
    method: CAPTURED_METHODS,
    config: { public: true, hook: true, prefix } satisfies HookRouteConfig,
    onRequest: async (request: HookRequest) => void admissions.set(request, await admit(relay, request)),
    handler: (request: HookRequest, reply: FastifyReply) => relay.track(capture(relay, maxBodyBytes, admissions.get(request)!, request, reply)),
  });
  const documented = {
    summary: "The hook URL (public, no gateway key): captures any method, any sub-path below it, any body up to 10 MiB",
    description:
      "Captures the request (method, path, headers, body) and answers with the inbox's default response when one is set, else 200 with the envelope naming the inbox_id and request_id (204 to a CORS preflight when CORS is on).",
    security: [],
    response: {
      200: {
        description: "The capture's receipt; an inbox with a default_response answers that instead (its status, body and content type)",
        content: { "application/json": { schema: successSchema(CaptureReceiptSchema) } },
      },
    },
  };
  app.route({ ...hookUrl(HOOK_PREFIX), url: `${HOOK_PREFIX}/:id`, schema: documented });
  app.route({ ...hookUrl(HOOK_PREFIX), url: `${HOOK_PREFIX}/:id/*`, schema: { hide: true } });
  if (relay.settings.hooksHost !== null) {
    app.route({ ...hookUrl(""), url: "/:id", schema: { hide: true } });
    app.route({ ...hookUrl(""), url: "/:id/*", schema: { hide: true } });
  }
}

/** An inbox found and its sender admitted, before the body is read. */
interface Admission {
  inbox: InboxRow;
  headers: HeaderEntry[];
  sourceIp: string;
}

/**
 * Everything that can refuse a sender, before its body is read: the inbox exists, the sender may
 * send to it, the inbox's per-second budget has room. A refused 10 MiB upload is never buffered.
 */
async function admit(relay: Relay, request: HookRequest): Promise<Admission> {
  const inboxId = request.params.id;
  const { prefix } = request.routeOptions.config as unknown as HookRouteConfig;
  if (prefix === "" && request.hostname.toLowerCase() !== relay.settings.hooksHost) throw errors.notFound(`Route ${request.method}:${request.url} not found`);
  if (!UUID.test(inboxId)) throw errors.notFound(`There is no inbox ${inboxId}.`);
  const inbox = await relay.inboxes.get(inboxId);
  if (!inbox) throw errors.notFound(`There is no inbox ${inboxId}, or it has expired.`);
  const headers = headerEntries(request.raw.rawHeaders);
  // The platform's rule (TRUST_PROXY, no proxy by default): a sender cannot name its own address.
  const sourceIp = displayIp(request.ip);
  refuseUnlessAllowed(inbox, sourceIp, headers);
  const waitSeconds = await relay.captureRate.take(inbox.id);
  if (waitSeconds > 0) throw rateLimited(relay.captureRate.limit, waitSeconds);
  return { inbox, headers, sourceIp };
}

async function capture(relay: Relay, maxBodyBytes: number, admission: Admission, request: HookRequest, reply: FastifyReply) {
  const { inbox, headers } = admission;
  const body = Buffer.isBuffer(request.body) ? request.body : await readUnparsedBody(request, maxBodyBytes);
  const capture = newCapture(admission, request, body, relay.deps.now());
  const bytes = storedBytes(capture);
  const stored = await store(relay, capture, inbox, bytes);
  if (stored.seq === null) throw storageFull(inbox, bytes);
  const row = capturedRow(capture, stored.seq, stored, inbox);
  await relay.announce(inbox.id, { seq: stored.seq, capture: captureView(row), forwarding: deliveryView(row) });
  return answer(reply, inbox, row, headers);
}

function newCapture({ inbox, headers, sourceIp }: Admission, request: HookRequest, body: Buffer, receivedAt: Date): NewCapture {
  const { prefix } = request.routeOptions.config as unknown as HookRouteConfig;
  const target = hookTarget(request.raw.url ?? request.url, `${prefix}/${request.params.id}`);
  return {
    id: randomUUID(),
    inboxId: inbox.id,
    receivedAt,
    method: request.method,
    path: target.path,
    queryString: target.queryString,
    headers,
    body,
    contentType: headerValue(headers, "content-type") ?? null,
    sourceIp,
  };
}

/**
 * Stores the capture; when the inbox forwards and the worker has room, the delivery is stored already
 * claimed by this process and handed straight to the worker, saving the worker a query.
 */
async function store(relay: Relay, capture: NewCapture, inbox: InboxRow, bytes: number): Promise<StoredCapture> {
  const { worker } = relay;
  const claimed = inbox.forward_url !== null && worker.reserve();
  try {
    const stored = await relay.storeCapture({
      capture,
      forwardUrl: inbox.forward_url,
      claimedUntil: claimed ? worker.claimUntil(relay.deps.now()) : null,
      accountId: inbox.account_id,
      storedBytes: bytes,
      quotaBytes: inbox.max_stored_bytes,
      bodyInRow: capture.body.length <= LIMITS.inlineBodyBytes,
    });
    if (claimed) worker.release(stored.delivery_id === null ? null : firstAttempt(capture, inbox, stored.delivery_id));
    else if (stored.queued) worker.wake();
    return stored;
  } catch (error) {
    if (claimed) worker.release(null);
    if (isForeignKeyViolation(error)) throw errors.notFound(`There is no inbox ${inbox.id}.`);
    throw error;
  }
}
