import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, serializeAsWritten, successSchema, type ServiceApp } from "@apiplat/service-kit";
import { destinationUrl } from "../domain/forwarding.js";
import { generateSigningSecret } from "@apiplat/webhook-delivery";
import { activeSecrets, attemptOutcome, sendRequest } from "../delivery/sender.js";
import { LIMITS } from "../domain/limits.js";
import type { Relay } from "../delivery/relay.js";
import { emptyBodyAsObject, ForwardBody, ForwardingSchema, InboxParams, ReplayBody, ReplaySchema, RequestParams } from "../schemas.js";
import { recordReplayAttempt } from "../store/deliveries.js";
import { rotateSigningSecret, setForwardUrl } from "../store/inboxes.js";
import { findRequest } from "../store/requests.js";
import { capturedBody } from "../store/bodies.js";
import { forwardingView } from "./views.js";
import { requireStorableText } from "./inbox-settings.js";

export interface ForwardingRoutesOptions {
  relay: Relay;
}

export const forwardingRoutes: FastifyPluginAsyncTypebox<ForwardingRoutesOptions> = async (app, options) => {
  app.setSerializerCompiler(serializeAsWritten);
  setForwardRoute(app, options);
  readForwardRoute(app, options);
  replayRoute(app, options);
};

function setForwardRoute(app: ServiceApp, { relay }: ForwardingRoutesOptions): void {
  const { db, now } = relay.deps;
  app.post(
    "/forward/:id",
    {
      schema: {
        params: InboxParams,
        body: ForwardBody,
        response: { 200: successSchema(ForwardingSchema) },
        summary: "Set or clear the forwarding URL; rotate the signing secret",
        description:
          "Every request captured from then on is sent to the URL (through the outbound guard), signed with Standard Webhooks headers, and retried on failure; null stops forwarding. rotate_secret makes a new signing secret.",
      },
    },
    async (request) => {
      let inbox = await relay.ownedInbox(request, request.params.id);
      const { url, rotate_secret } = request.body;
      requireStorableText(url, "url");
      if (url !== undefined && url !== null) await relay.outbound.check(url, "url");
      if (url !== undefined) inbox = await setForwardUrl(db, inbox.id, url, now());
      if (rotate_secret) {
        inbox = await rotateSigningSecret(db, inbox.id, generateSigningSecret(), new Date(now().getTime() + LIMITS.secretGraceMs));
      }
      await relay.inboxes.changed(inbox.id);
      return ok(forwardingView(inbox, now()));
    },
  );
}

function readForwardRoute(app: ServiceApp, { relay }: ForwardingRoutesOptions): void {
  const { now } = relay.deps;
  app.get(
    "/forward/:id",
    {
      schema: {
        params: InboxParams,
        response: { 200: successSchema(ForwardingSchema) },
        summary: "The forwarding URL and signing secret",
        description: "The inbox's forwarding URL (null when none) and the secret its deliveries are signed with.",
      },
    },
    async (request) => {
      const inbox = await relay.ownedInbox(request, request.params.id);
      return ok(forwardingView(inbox, now()));
    },
  );
}

function replayRoute(app: ServiceApp, { relay }: ForwardingRoutesOptions): void {
  const { db, now } = relay.deps;
  app.post(
    "/replay/:id/:request_id",
    {
      preValidation: emptyBodyAsObject,
      schema: {
        params: RequestParams,
        body: ReplayBody,
        response: { 200: successSchema(ReplaySchema) },
        summary: "Send a captured request again, now, and return the answer",
        description:
          "Replays one captured request to the forwarding URL (or the url given in the body) and answers with the destination's status, headers and body.",
      },
    },
    async (request) => {
      const inbox = await relay.ownedInbox(request, request.params.id);
      requireStorableText(request.body.url, "url");
      // What to replay is found first: an unknown request is a 404 whatever the inbox forwards to.
      const row = await findRequest(db, inbox.id, request.params.request_id);
      if (!row) throw errors.notFound(`Inbox ${inbox.id} has no request ${request.params.request_id}.`);
      const base = request.body.url ?? inbox.forward_url;
      if (!base)
        throw errors.conflict("This inbox has no forwarding URL; give one in url.", [{ field: "url", issue: "is required when the inbox does not forward" }]);
      await relay.outbound.check(base, "url");
      const startedAt = now();
      const target = destinationUrl(base, row.path, row.query_string);
      const outgoing = {
        messageId: row.id,
        method: row.method,
        headers: row.headers,
        body: await capturedBody(db, row.id, row.body),
        dropAuthorization: inbox.basic_auth_username !== null,
        secrets: activeSecrets(inbox.signing_secret, inbox.previous_signing_secret, inbox.previous_secret_expires_at, startedAt),
      };
      const result = await sendRequest(relay.outbound, target, outgoing, Math.floor(startedAt.getTime() / 1000), relay.settings.forwardTimeoutMs);
      if (result.permanentError && result.statusCode === null) throw errors.validation("url", result.error ?? "was refused");
      const attempt = await recordReplayAttempt(db, { requestId: row.id, ...attemptOutcome(result, startedAt) });
      return ok({
        request_id: row.id,
        replay: attempt,
        url: result.url,
        started_at: startedAt.toISOString(),
        status_code: result.statusCode,
        latency_ms: result.latencyMs,
        error: result.error,
        response_body: result.responseBody,
      });
    },
  );
}
