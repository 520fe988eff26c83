import type { FastifyReply, FastifyRequest } from "fastify";
import { serviceUrl } from "@apiplat/config";
import { createServiceApp, errors, type PlatformDeps, type ServiceApp } from "@apiplat/service-kit";
import { createOutboundClient, type OutboundClient } from "@apiplat/outbound-guard";
import { relaySettingsFromEnv } from "./settings.js";
import { LIMITS } from "./domain/limits.js";
import { defaultRelaySettings, Relay, type RelaySettings } from "./delivery/relay.js";
import { forwardingRoutes } from "./routes/forwarding.js";
import { hookRoutes } from "./routes/hooks.js";
import { inboxRoutes } from "./routes/inboxes.js";
import { streamRoutes } from "./routes/stream.js";

declare module "fastify" {
  interface FastifyInstance {
    /** The relay's worker, feed and purge job (tests run the purge on demand). */
    webhookRelay: Relay;
  }
}

export interface WebhookRelayDeps extends PlatformDeps {
  relay?: Partial<RelaySettings>;
}

const SERVICE = "webhook-relay" as const;

/** The hooks host exists to keep hook answers off the API's origin: the API does not answer there. */
function hooksHostServesHooksOnly(hooksHost: string) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const isHook = (request.routeOptions.config as { hook?: boolean }).hook === true;
    if (!isHook && request.hostname.toLowerCase() === hooksHost) return done(errors.notFound(`${hooksHost} serves hook URLs only.`));
    done();
  };
}

export async function buildApp(deps: WebhookRelayDeps): Promise<ServiceApp> {
  // Hook URLs are handed out where the service answers: its port on this machine on the local start, its public host with PUBLIC_DOMAIN.
  const settings: RelaySettings = { ...defaultRelaySettings(serviceUrl(deps.config, SERVICE)), ...deps.relay };
  // With a hooks host of their own, hook URLs are handed out on it unless a base is given explicitly.
  if (settings.hooksHost !== null && deps.relay?.hooksUrl === undefined) settings.hooksUrl = `http://${settings.hooksHost}`;
  const outbound: OutboundClient = createOutboundClient({ allowCidrs: deps.config.outboundAllowCidrs, userAgent: "webhook-relay/1.0" });
  const app = await createServiceApp({
    service: SERVICE,
    deps,
    migrations: new URL("../migrations", import.meta.url),
    description:
      "Temporary webhook endpoints that capture every request, stream them live, forward them signed (Standard Webhooks) with retries, and replay them.",
  });
  if (settings.hooksHost !== null) app.addHook("onRequest", hooksHostServesHooksOnly(settings.hooksHost));
  const relay = new Relay(deps, outbound, settings, app.log);
  app.decorate("webhookRelay", relay);
  await app.register(hookRoutes, { relay, maxBodyBytes: LIMITS.maxBodyBytes });
  await app.register(inboxRoutes, { relay, maxInboxesPerAccount: LIMITS.maxInboxesPerAccount });
  await app.register(forwardingRoutes, { relay });
  await app.register(streamRoutes, { relay });
  app.addHook("onClose", async () => {
    await relay.stop();
    await outbound.close();
  });
  await relay.start();
  return app;
}

export const service = {
  name: SERVICE,
  build: (platform: PlatformDeps) => buildApp({ ...platform, relay: relaySettingsFromEnv(platform.config.env) }),
};
