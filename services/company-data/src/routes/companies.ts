import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { InvalidDomain, domainCandidates, normalizeDomain } from "../domain/domains.js";
import { parseCompanyId } from "../domain/ids.js";
import * as S from "../schemas.js";
import { profileByCik, profileByDomain, profileById } from "../store/companies.js";

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
      const limit = request.query.filings_limit ?? S.DEFAULT_FILINGS;
      const profile = ref.kind === "cik" ? await profileByCik(db, ref.cik, limit) : await profileById(db, ref.slug, limit);
      if (!profile) throw errors.notFound(`No company ${request.params.id} in the catalogue.`);
      return ok(profile);
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
      const profile = await profileByDomain(db, domainCandidates(domain), request.query.filings_limit ?? S.DEFAULT_FILINGS);
      if (!profile) throw errors.notFound(`No company with the website domain ${domain} in the catalogue.`);
      return ok(profile);
    },
  );
};
