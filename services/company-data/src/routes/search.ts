import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { pageInfo, pageOf } from "@apiplat/catalogue";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { US_STATES, hasDistinctiveWord, joinedShortWords } from "../domain/names.js";
import * as S from "../schemas.js";
import { closestValues } from "../store/companies.js";
import type { SearchFilters } from "../store/companies.js";
import type { CompanySearch, CompanySearchReader } from "../store/company-snapshot.js";

/**
 * An industry or sector no company has is a mistake in the request (400 with the closest values), not an empty page.
 * Checked only when a search finds nothing: a result proves the value exists.
 */
async function checkKnown(db: Queryable, field: "industry" | "sector", value: string | undefined): Promise<void> {
  if (value === undefined) return;
  const { known, suggestions } = await closestValues(db, field, value.trim());
  if (!known) {
    const closest = suggestions.length ? `; the closest are ${suggestions.map((s) => `"${s}"`).join(", ")}` : "";
    throw errors.validation(field, `is not the ${field} of any company${closest}`);
  }
}

/**
 * The name as typed, or with its short words joined ("jp morgan" as "jpmorgan"), whichever matches its best company
 * more closely: a brand written as one word ranks first whichever way it is typed.
 */
function bestSpellingOf(search: CompanySearch, filters: SearchFilters): string | undefined {
  const joined = filters.name === undefined ? null : joinedShortWords(filters.name);
  if (joined === null) return filters.name;
  const topScore = (name: string | undefined) => search.search({ ...filters, name }, { offset: 0, limit: 1, fingerprint: "" }).hits[0]?.match_score ?? -1;
  return topScore(joined) > topScore(filters.name) ? joined : filters.name;
}

export interface SearchRoutesOptions {
  db: Queryable;
  /** The companies in memory, current as of the search (see src/store/company-snapshot.ts). */
  companies: CompanySearchReader;
}

export const searchRoutes: FastifyPluginAsyncTypebox<SearchRoutesOptions> = async (app, { db, companies }) => {
  app.get(
    "/search",
    {
      schema: {
        summary: "Search companies",
        description:
          "By name (typo-tolerant trigram match, legal suffixes ignored), ticker, industry, sector, headquarters state and minimum employees; filters combine. Without a name, companies come by Fortune rank, then name.",
        querystring: S.SearchQuery,
        response: { 200: successSchema(S.SearchPage) },
      },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      if (query.name !== undefined && !hasDistinctiveWord(query.name)) {
        throw errors.validation("name", "must contain a word besides legal suffixes such as Inc or Ltd");
      }
      if (query.state !== undefined && !US_STATES.has(query.state.toUpperCase())) {
        throw errors.validation("state", "must be a US state or territory code such as CA, NY or DC");
      }
      const search = await companies();
      const filters = {
        name: query.name,
        ticker: query.ticker,
        industry: query.industry?.trim(),
        sector: query.sector?.trim(),
        state: query.state,
        minEmployees: query.min_employees,
      };
      const { total, hits } = search.search({ ...filters, name: bestSpellingOf(search, filters) }, page);
      if (total === 0) {
        await checkKnown(db, "industry", query.industry);
        await checkKnown(db, "sector", query.sector);
      }
      return ok({ ...pageInfo(page, total), companies: hits });
    },
  );
};
