import type { FastifyReply, FastifyRequest } from "fastify";
import { defineService, errors } from "@apiplat/service-kit";
import { createOutboundClient } from "@apiplat/outbound-guard";
import { Relay } from "./delivery/relay.js";
import { LIMITS } from "./domain/limits.js";
import { forwardingRoutes } from "./routes/forwarding.js";
import { hookRoutes } from "./routes/hooks.js";
import { inboxRoutes } from "./routes/inboxes.js";
import { streamRoutes } from "./routes/stream.js";
import { hooksUrlOf, settingsFromEnv, type RelaySettings } from "./settings.js";

/** What a test may pass: a hand on the relay, to run the retention purge on demand. */
export interface RelayInject {
  onRelay(relay: Relay): void;
}

/** The hooks host exists to keep hook answers off the API's origin: the API does not answer there. */
function hooksHostServesHooksOnly(hooksHost: string) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const isHook = (request.routeOptions.config as { hook?: boolean }).hook === true;
    if (!isHook && request.hostname.toLowerCase() === hooksHost) return done(errors.notFound(`${hooksHost} serves hook URLs only.`));
    done();
  };
}

export default defineService<RelaySettings, RelayInject>({
  name: "webhook-relay",
  description:
    "Temporary webhook endpoints that capture every request, stream them live, forward them signed (Standard Webhooks) with retries, and replay them.",
  settings: settingsFromEnv,
  migrations: new URL("../migrations", import.meta.url),
  examples: new URL("../openapi-examples.json", import.meta.url),
  async build({ app, platform, settings, inject, background }) {
    const outbound = createOutboundClient({ allowCidrs: platform.config.outboundAllowCidrs, userAgent: "webhook-relay/1.0" });
    if (settings.hooksHost !== null) app.addHook("onRequest", hooksHostServesHooksOnly(settings.hooksHost));
    const relay = new Relay(platform, outbound, settings, app.log);
    inject.onRelay?.(relay);
    await app.register(hookRoutes, { relay, maxBodyBytes: LIMITS.maxBodyBytes });
    await app.register(inboxRoutes, { relay, hooksUrl: hooksUrlOf(settings, platform.config), maxInboxesPerAccount: LIMITS.maxInboxesPerAccount });
    await app.register(forwardingRoutes, { relay });
    await app.register(streamRoutes, { relay });
    // Stopped in reverse order: the purge, then captures in flight, the worker, the cache's subscription, the client.
    background({ name: "outbound client", start() {}, stop: () => outbound.close() });
    background({ name: "inbox cache", start: () => relay.inboxes.start(), stop: () => relay.inboxes.stop() });
    background({ name: "delivery worker", start: () => relay.worker.start(), stop: () => relay.worker.stop() });
    background({ name: "captures in flight and live-stream announcements", start() {}, stop: () => relay.drain() });
    background({ name: "retention purge", start: () => relay.startPurge(), stop: () => relay.stopPurge() });
    background({ name: "capture rate limit", start() {}, stop: () => relay.captureRate.close() });
  },
});
