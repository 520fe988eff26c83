import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { InvalidDomain, domainCandidates, normalizeDomain } from "../domain/domains.js";
import { parseCompanyId } from "../domain/ids.js";
import type { Profile } from "../domain/merge.js";
import * as S from "../schemas.js";
import { profileByCik, profileByDomain, profileById, recentFilings } from "../store/companies.js";

async function withFilings(db: Queryable, profile: Profile, limit: number) {
  const filings = profile.cik === null ? { total: 0, filings: [] } : await recentFilings(db, Number(profile.cik), limit);
  return { ...profile, filings: { total: filings.total, recent: filings.filings } };
}

export const companyRoutes: FastifyPluginAsyncTypebox<{ db: Queryable }> = async (app, { db }) => {
  app.get(
    "/company/:id",
    {
      schema: {
        summary: "A company's full profile",
        description:
          "Name, legal name, ticker, exchange, CIK, industry and sector, size, founding year, headquarters, website and domain, social profiles, description and recent EDGAR filings; `sources` names the source of every field. The id is the ten-digit CIK (leading zeros optional) or the slug of a company without one.",
        params: S.CompanyParams,
        querystring: S.CompanyQuery,
        response: { 200: successSchema(S.CompanyDetails) },
      },
    },
    async (request) => {
      const ref = parseCompanyId(request.params.id);
      if (ref === null) throw errors.validation("id", "must be a CIK from 1 to 9999999999 or a company slug");
      const profile = ref.kind === "cik" ? await profileByCik(db, ref.cik) : await profileById(db, ref.slug);
      if (!profile) throw errors.notFound(`No company ${request.params.id} in the catalogue.`);
      return ok(await withFilings(db, profile, request.query.filings_limit ?? S.DEFAULT_FILINGS));
    },
  );

  app.get(
    "/domain/:domain",
    {
      schema: {
        summary: "Look a company up by its website domain",
        description:
          "The company whose website has this domain (scheme, www., port and path ignored), else one of its parent domains (investor.example.com finds example.com). The full profile, as GET /company/{id}.",
        params: S.DomainParams,
        querystring: S.CompanyQuery,
        response: { 200: successSchema(S.CompanyDetails) },
      },
    },
    async (request) => {
      let domain: string;
      try {
        domain = normalizeDomain(request.params.domain);
      } catch (error) {
        if (error instanceof InvalidDomain) throw errors.validation("domain", error.message);
        throw error;
      }
      const profile = await profileByDomain(db, domainCandidates(domain));
      if (!profile) throw errors.notFound(`No company with the website domain ${domain} in the catalogue.`);
      return ok(await withFilings(db, profile, request.query.filings_limit ?? S.DEFAULT_FILINGS));
    },
  );
};
