import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { pageInfo, pageOf, parseDateRange, textSearchConfig } from "@apiplat/catalogue";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import * as S from "../schemas.js";
import { findArticles, newestPublishedOf, type ArticleCatalogue, type ArticleFilters } from "../store/article-catalogue.js";
import { refuseUnknown } from "./known-values.js";
import { articleView } from "./views.js";

/** Top headlines: the articles of the last HEADLINES_WINDOW_HOURS up to the newest one in scope, at most MAX_HEADLINES. */
const HEADLINES_WINDOW_HOURS = 24;
const MAX_HEADLINES = 100;

export interface ArticleRoutesOptions {
  db: Queryable;
  catalogue: ArticleCatalogue;
}

async function textOf(catalogue: ArticleCatalogue, q: string | undefined, language: string | undefined): Promise<ArticleFilters["text"]> {
  if (q === undefined) return undefined;
  if (q.trim() === "") throw errors.validation("q", "must contain at least one word");
  return { query: await catalogue.prepare(q), config: textSearchConfig(language ?? "en") };
}

export const articleRoutes: FastifyPluginAsyncTypebox<ArticleRoutesOptions> = async (app, { db, catalogue }) => {
  app.get(
    "/search",
    {
      schema: {
        summary: "Search articles",
        description:
          "Full-text search over every article (title weighted over description), with NewsAPI's filters. Misspelt words are corrected from the catalogue's vocabulary (see corrected_query).",
        querystring: S.SearchQuery,
        response: { 200: successSchema(S.ArticlePage) },
      },
    },
    async (request) => {
      const query = request.query;
      if (query.topic !== undefined && query.category !== undefined)
        throw errors.validation("topic", "give topic or category, not both (they are the same filter)");
      const page = pageOf(query);
      await refuseUnknown(db, "country", "country", query.country, catalogue);
      await refuseUnknown(db, "sources", "source", query.sources, catalogue);
      const text = await textOf(catalogue, query.q, query.language);
      const filters: ArticleFilters = {
        text,
        categories: query.category ?? query.topic,
        countries: query.country,
        language: query.language,
        sources: query.sources,
        domains: query.domains,
        range: parseDateRange({ from: ["from", query.from], to: ["to", query.to] }),
      };
      const sort = query.sort_by ?? (text ? "relevancy" : "published_at");
      if (sort === "relevancy" && !text) throw errors.validation("sort_by", "relevancy needs q; use published_at or popularity");
      const { total, articles, facets } = await findArticles(catalogue, filters, sort, page, query.facets === true);
      return ok({
        ...pageInfo(page, total),
        corrected_query: text?.query.corrected ?? null,
        articles: articles.map(articleView),
        ...(facets ? { facets } : {}),
      });
    },
  );

  app.get(
    "/top-headlines",
    {
      schema: {
        summary: "Top headlines",
        description: `Headlines for a country and/or a category, or for sources: the articles of the ${HEADLINES_WINDOW_HOURS} hours up to the newest one in scope (the catalogue is historical: its "now" is its newest article), newest first, at most ${MAX_HEADLINES}. Use /search for everything.`,
        querystring: S.TopHeadlinesQuery,
        response: { 200: successSchema(S.HeadlinesPage) },
      },
    },
    async (request) => {
      const query = request.query;
      if (query.sources !== undefined && (query.country !== undefined || query.category !== undefined)) {
        throw errors.validation("sources", "cannot be mixed with country or category (as in NewsAPI)");
      }
      const page = pageOf(query);
      await refuseUnknown(db, "country", "country", query.country, catalogue);
      await refuseUnknown(db, "sources", "source", query.sources, catalogue);
      const text = await textOf(catalogue, query.q, undefined);
      const scope: ArticleFilters = { categories: query.category, countries: query.country, sources: query.sources };
      const end = await newestPublishedOf(catalogue, scope);
      const window = end && { from: new Date(end.getTime() - HEADLINES_WINDOW_HOURS * 3_600_000 + 1), to: new Date(end.getTime() + 1) };
      const selection = { window_start: window ? window.from.toISOString() : null, window_end: end ? end.toISOString() : null, max_results: MAX_HEADLINES };
      if (!window || page.offset >= MAX_HEADLINES) {
        return ok({ ...pageInfo(page, 0), corrected_query: text?.query.corrected ?? null, selection, articles: [] });
      }
      const bounded = { ...page, limit: Math.min(page.limit, MAX_HEADLINES - page.offset) };
      const { total, articles } = await findArticles(catalogue, { ...scope, text, range: window }, "published_at", bounded, false);
      const shown = Math.min(total, MAX_HEADLINES);
      return ok({ ...pageInfo(page, shown), corrected_query: text?.query.corrected ?? null, selection, articles: articles.map(articleView) });
    },
  );
};
