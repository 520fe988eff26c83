import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema, type ServiceApp } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { Type } from "typebox";
import { isDomainName } from "../domain/addresses.js";
import { cnameMatches, dkimMatches, returnPathHost, spfMatches, type PlatformDomains } from "../domain/dns-records.js";
import type { SigningKeys } from "../delivery/signing-keys.js";
import * as S from "../schemas.js";
import { countDomains, deleteDomain, findDomain, insertDomain, listDomains, saveVerification } from "../store/domains.js";
import { domainView } from "./views.js";

/** What verification asks DNS; production uses node:dns, tests inject answers. */
export interface DnsResolver {
  resolveTxt(name: string): Promise<string[][]>;
  resolveCname(name: string): Promise<string[]>;
}

export interface DomainRoutesOptions {
  db: Database;
  now: () => Date;
  keys: SigningKeys;
  resolver: DnsResolver;
  platform: PlatformDomains;
  defaultDomain: string;
  maxDomainsPerAccount: number;
}

/** A name that does not exist (or has no such record) is "not verified", not an error. */
async function answers<T>(lookup: () => Promise<T[]>): Promise<T[]> {
  try {
    return await lookup();
  } catch {
    return [];
  }
}

const normalizeDomain = (domain: string) => domain.trim().toLowerCase().replace(/\.$/, "");

export const domainRoutes: FastifyPluginAsyncTypebox<DomainRoutesOptions> = async (app, options) => {
  addDomainRoute(app, options);
  listDomainsRoute(app, options);
  readDomainRoute(app, options);
  verifyDomainRoute(app, options);
  deleteDomainRoute(app, options);
};

function addDomainRoute(app: ServiceApp, { db, now, keys, platform, defaultDomain, maxDomainsPerAccount }: DomainRoutesOptions): void {
  app.post(
    "/domains",
    {
      schema: {
        summary: "Register a sending domain",
        description:
          "Generates the domain's DKIM key (RSA 2048; the private key is stored encrypted) and answers with the DNS records to publish: SPF include, DKIM public key under a selector, return-path CNAME. Mail from the domain is refused until POST /domains/{domain}/verify finds SPF and DKIM.",
        body: S.DomainBody,
        response: { 201: successSchema(S.Domain) },
      },
    },
    async (request, reply) => {
      const accountId = request.subscriber.accountId;
      const domain = normalizeDomain(request.body.domain);
      if (!isDomainName(domain)) throw errors.validation("domain", "must be a domain name such as example.com");
      if (domain === defaultDomain) throw errors.conflict(`${domain} is the service's own sending domain; every account may already send from it.`);
      if ((await countDomains(db, accountId)) >= maxDomainsPerAccount) {
        throw errors.conflict(`This account already has ${maxDomainsPerAccount} sending domains, the most it may have.`);
      }
      if (await findDomain(db, accountId, domain)) throw errors.conflict(`${domain} is already registered for this account.`);
      const generated = await keys.generate();
      const at = now();
      const inserted = await insertDomain(db, {
        account_id: accountId,
        domain,
        dkim_selector: generated.selector,
        dkim_public_key: generated.publicKey,
        dkim_private_key_enc: generated.privateKeyEnc,
        spf_verified: false,
        dkim_verified: false,
        return_path_verified: false,
        verified_at: null,
        last_checked_at: null,
        created_at: at,
      });
      if (!inserted) throw errors.conflict(`${domain} is already registered for this account.`);
      return reply.code(201).send(ok(domainView((await findDomain(db, accountId, domain))!, platform)));
    },
  );
}

function listDomainsRoute(app: ServiceApp, { db, platform }: DomainRoutesOptions): void {
  app.get(
    "/domains",
    {
      schema: {
        summary: "List sending domains",
        description: "The account's domains with their records and verification state.",
        response: { 200: successSchema(Type.Object({ domains: Type.Array(S.Domain) })) },
      },
    },
    async (request) => ok({ domains: (await listDomains(db, request.subscriber.accountId)).map((row) => domainView(row, platform)) }),
  );
}

function readDomainRoute(app: ServiceApp, { db, platform }: DomainRoutesOptions): void {
  app.get(
    "/domains/:domain",
    {
      schema: {
        summary: "Read a sending domain",
        description: "Its DNS records and verification state.",
        params: S.DomainParams,
        response: { 200: successSchema(S.Domain) },
      },
    },
    async (request) => {
      const row = await findDomain(db, request.subscriber.accountId, normalizeDomain(request.params.domain));
      if (!row) throw errors.notFound(`No sending domain ${request.params.domain} on this account.`);
      return ok(domainView(row, platform));
    },
  );
}

function verifyDomainRoute(app: ServiceApp, { db, now, keys, resolver, platform }: DomainRoutesOptions): void {
  app.post(
    "/domains/:domain/verify",
    {
      schema: {
        summary: "Check a domain's DNS records",
        description:
          "Looks up the SPF, DKIM and return-path records. SPF and DKIM make the domain verified; a verified return-path CNAME moves bounces onto the domain's own bounce subdomain.",
        params: S.DomainParams,
        response: { 200: successSchema(S.Domain) },
      },
    },
    async (request) => {
      const accountId = request.subscriber.accountId;
      const row = await findDomain(db, accountId, normalizeDomain(request.params.domain));
      if (!row) throw errors.notFound(`No sending domain ${request.params.domain} on this account.`);
      const [spf, dkim, cname] = await Promise.all([
        answers(() => resolver.resolveTxt(row.domain)),
        answers(() => resolver.resolveTxt(`${row.dkim_selector}._domainkey.${row.domain}`)),
        answers(() => resolver.resolveCname(returnPathHost(row.domain))),
      ]);
      const result = { spf: spfMatches(spf, platform), dkim: dkimMatches(dkim, row.dkim_public_key), returnPath: cnameMatches(cname, platform.bounceHost) };
      const updated = await saveVerification(db, accountId, row.domain, result, now());
      keys.forget(accountId, row.domain);
      return ok(domainView(updated, platform));
    },
  );
}

function deleteDomainRoute(app: ServiceApp, { db, now, keys }: DomainRoutesOptions): void {
  app.delete(
    "/domains/:domain",
    {
      schema: {
        summary: "Remove a sending domain",
        description: "Its key is deleted; mail from it is refused from now on.",
        params: S.DomainParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const accountId = request.subscriber.accountId;
      const domain = normalizeDomain(request.params.domain);
      if (!(await deleteDomain(db, accountId, domain))) throw errors.notFound(`No sending domain ${request.params.domain} on this account.`);
      keys.forget(accountId, domain);
      return reply.code(204).send(null);
    },
  );
}
