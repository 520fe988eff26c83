import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema, type ServiceApp } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { Type } from "typebox";
import { verifyDomain, type DomainVerification } from "../app/custom-domains.js";
import { requireCustomDomainPlan } from "../app/link-service.js";
import type { LocalLookup } from "../engine/local-lookup.js";
import type { ShortenerSettings } from "../settings.js";
import { domainView } from "./views.js";
import { normalizeHostname } from "../domain/hostname.js";
import { normalizeUrl } from "../domain/url.js";
import { findDomain, insertDomain, listDomains } from "../store/domains.js";
import { getFallbackUrl, putFallbackUrl } from "../store/settings.js";
import { DomainBodySchema, DomainParams, DomainSchema, SettingsBodySchema } from "../schemas.js";

const SettingsSchema = Type.Object({ fallback_url: Type.Union([Type.String(), Type.Null()]) });

export interface AccountRoutesOptions extends DomainVerification {
  db: Database;
  settings: ShortenerSettings;
  now: () => Date;
  /** The accounts' fallback URLs as the redirects read them: told when one changes. */
  accountFallbacks: LocalLookup<string | null>;
  /** The checks a fallback URL gets (outbound guard and safety); throws an ApiError naming fallback_url. */
  checkFallback: (url: string) => Promise<void>;
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRoutesOptions> = async (app, options) => {
  settingsRoutes(app, options);
  registerDomainRoute(app, options);
  listDomainsRoute(app, options);
  verifyDomainRoute(app, options);
};

function settingsRoutes(app: ServiceApp, { db, now, accountFallbacks, checkFallback }: AccountRoutesOptions): void {
  app.get("/settings", { schema: { summary: "The account's link settings", response: { 200: successSchema(SettingsSchema) } } }, async (request) =>
    ok({ fallback_url: await getFallbackUrl(db, request.subscriber.accountId) }),
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
        await checkFallback(fallbackUrl);
      }
      await putFallbackUrl(db, accountId, fallbackUrl, now());
      await accountFallbacks.invalidate(accountId);
      return ok({ fallback_url: fallbackUrl });
    },
  );
}

function registerDomainRoute(app: ServiceApp, options: AccountRoutesOptions): void {
  const { db, settings, now } = options;
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
      const row = await insertDomain(db, host.host, request.subscriber.accountId, now());
      if (!row) throw errors.conflict(`${host.host} is already registered.`, [{ field: "domain", issue: "is already registered" }]);
      reply.code(201);
      return ok(domainView(await verifyDomain(options, host.host), settings));
    },
  );
}

function listDomainsRoute(app: ServiceApp, { db, settings }: AccountRoutesOptions): void {
  app.get(
    "/domains",
    { schema: { summary: "The account's custom domains", response: { 200: successSchema(Type.Object({ domains: Type.Array(DomainSchema) })) } } },
    async (request) => {
      const rows = await listDomains(db, request.subscriber.accountId);
      return ok({ domains: rows.map((row) => domainView(row, settings)) });
    },
  );
}

function verifyDomainRoute(app: ServiceApp, options: AccountRoutesOptions): void {
  const { db, settings } = options;
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
      const row = host.ok ? await findDomain(db, host.host) : null;
      if (!host.ok || !row || row.account_id !== request.subscriber.accountId) {
        throw errors.notFound(`You have not registered the domain ${request.params.domain}.`);
      }
      return ok(domainView(await verifyDomain(options, row.domain), settings));
    },
  );
}
