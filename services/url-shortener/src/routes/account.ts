import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import { Type } from "typebox";
import { requireCustomDomainPlan } from "../links/link-service.js";
import type { ShortenerCore } from "../links/shortener-core.js";
import { domainView } from "../links/views.js";
import { verifyCname } from "../links/domain-verification.js";
import { normalizeHostname } from "../domain/hostname.js";
import { normalizeUrl } from "../domain/url.js";
import { findDomain, insertDomain, listDomains, recordVerification } from "../store/domains.js";
import { getFallbackUrl, putFallbackUrl } from "../store/settings.js";
import { DomainBodySchema, DomainParams, DomainSchema, SettingsBodySchema } from "../schemas.js";

const SettingsSchema = Type.Object({ fallback_url: Type.Union([Type.String(), Type.Null()]) });

export const accountRoutes: FastifyPluginAsyncTypebox<ShortenerCore> = async (app, core) => {
  const { settings } = core;

  app.get("/settings", { schema: { summary: "The account's link settings", response: { 200: successSchema(SettingsSchema) } } }, async (request) =>
    ok({ fallback_url: await getFallbackUrl(core.db, request.subscriber.accountId) }),
  );

  app.put(
    "/settings",
    {
      schema: {
        summary: "Set the account's fallback URL for expired, used-up and deleted links (null removes it)",
        body: SettingsBodySchema,
        response: { 200: successSchema(SettingsSchema) },
      },
    },
    async (request) => {
      const { accountId } = request.subscriber;
      let fallbackUrl: string | null = null;
      if (request.body.fallback_url !== null) {
        const normalized = normalizeUrl(request.body.fallback_url);
        if (!normalized.ok) throw errors.validation("fallback_url", normalized.issue);
        fallbackUrl = normalized.url;
        await core.checkFallback(fallbackUrl);
      }
      await putFallbackUrl(core.db, accountId, fallbackUrl, core.now());
      await core.accountFallbacks.invalidate(accountId);
      return ok({ fallback_url: fallbackUrl });
    },
  );

  app.post(
    "/domains",
    {
      schema: {
        summary: "Register a custom domain (PRO and above) and verify its CNAME at once",
        body: DomainBodySchema,
        response: { 201: successSchema(DomainSchema) },
      },
    },
    async (request, reply) => {
      requireCustomDomainPlan(request.subscriber);
      const host = normalizeHostname(request.body.domain);
      if (!host.ok) throw errors.validation("domain", host.issue);
      if (host.host === settings.edgeHost || host.host === new URL(settings.baseUrl).hostname) {
        throw errors.validation("domain", "must be your own domain, not the service's host");
      }
      const row = await insertDomain(core.db, host.host, request.subscriber.accountId, core.now());
      if (!row) throw errors.conflict(`${host.host} is already registered.`, [{ field: "domain", issue: "is already registered" }]);
      reply.code(201);
      return ok(domainView(await verify(host.host), settings));
    },
  );

  app.get(
    "/domains",
    { schema: { summary: "The account's custom domains", response: { 200: successSchema(Type.Object({ domains: Type.Array(DomainSchema) })) } } },
    async (request) => {
      const rows = await listDomains(core.db, request.subscriber.accountId);
      return ok({ domains: rows.map((row) => domainView(row, settings)) });
    },
  );

  app.post(
    "/domains/:domain/verify",
    {
      schema: {
        summary: "Check the domain's CNAME again (after changing DNS)",
        params: DomainParams,
        response: { 200: successSchema(DomainSchema) },
      },
    },
    async (request) => {
      requireCustomDomainPlan(request.subscriber);
      const host = normalizeHostname(request.params.domain);
      const row = host.ok ? await findDomain(core.db, host.host) : null;
      if (!host.ok || !row || row.account_id !== request.subscriber.accountId) {
        throw errors.notFound(`You have not registered the domain ${request.params.domain}.`);
      }
      return ok(domainView(await verify(row.domain), settings));
    },
  );

  async function verify(domain: string) {
    const result = await verifyCname(core.dnsResolver, domain, settings.edgeHost);
    const row = await recordVerification(core.db, domain, core.now(), result.verified ? null : result.reason);
    await core.customDomains.changed();
    return row;
  }
};
