import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import type { TObject } from "typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import type { GeocodingIndex } from "../domain/build.js";
import { reverseGeocode } from "../domain/reverse.js";
import { QueryError } from "../domain/search.js";
import { LanguagesData, PlaceParams, PlaceQuery, PlaceSchema, ReverseData, ReverseQuery, SearchData, SearchQuery } from "../schemas.js";

export interface GeocodingRoutesOptions {
  index: GeocodingIndex;
}

export const geocodingRoutes: FastifyPluginAsyncTypebox<GeocodingRoutesOptions> = async (app, { index }) => {
  const { gazetteer, search } = index;

  const languageOf = (value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    const language = value.toLowerCase();
    if (!gazetteer.supportsLanguage(language)) {
      throw errors.validation("language", "must be a supported ISO 639-1 code (GET /languages lists them)");
    }
    return language;
  };

  app.get(
    "/search",
    refusingEmptyParameters({ summary: "Find cities and towns by name", querystring: SearchQuery, response: { 200: successSchema(SearchData) } }),
    async (request) => {
      const { q, limit } = request.query;
      const language = languageOf(request.query.language);
      const country = request.query.country?.toUpperCase();
      try {
        const outcome = search.search({ q, limit, language, country });
        return ok({
          query: { q, name: outcome.name, qualifiers: outcome.qualifiers, limit, language: language ?? null, country: country ?? null },
          count: outcome.results.length,
          results: outcome.results,
        });
      } catch (error) {
        if (error instanceof QueryError) throw errors.validation(error.field, error.issue);
        throw error;
      }
    },
  );

  app.get(
    "/reverse",
    refusingEmptyParameters({ summary: "The nearest city or town to a point", querystring: ReverseQuery, response: { 200: successSchema(ReverseData) } }),
    async (request) => {
      const { lat, lon, max_distance_km } = request.query;
      const language = languageOf(request.query.language);
      return ok(reverseGeocode(gazetteer, { latitude: lat, longitude: lon, maxDistanceKm: max_distance_km, language }));
    },
  );

  app.get(
    "/places/:id",
    refusingEmptyParameters({
      summary: "One place by its GeoNames id",
      params: PlaceParams,
      querystring: PlaceQuery,
      response: { 200: successSchema(PlaceSchema) },
    }),
    async (request) => {
      const language = languageOf(request.query.language);
      const index = gazetteer.indexOfId(request.params.id);
      if (index === undefined) throw errors.notFound(`No place has the GeoNames id ${request.params.id} in this gazetteer.`);
      return ok(gazetteer.describe(index, language));
    },
  );

  // Counting each catalogue's names reads every catalogue: done on the first call, not at start-up.
  let languages: ReturnType<typeof gazetteer.languages> | undefined;
  app.get("/languages", { schema: { summary: "Languages the language parameter accepts", response: { 200: successSchema(LanguagesData) } } }, async () => {
    languages ??= gazetteer.languages();
    return ok({ count: languages.length, languages });
  });
};

/**
 * A route's options with its schema: query strings are coerced by the schema, which would read "lat=" as 0, so every
 * parameter of its query string is refused when empty before that happens.
 */
function refusingEmptyParameters<Schema extends { querystring: TObject }>(schema: Schema) {
  const names = Object.keys(schema.querystring.properties);
  return {
    schema,
    preValidation: async (request: { query: unknown }) => {
      const query = request.query as Record<string, unknown>;
      for (const name of names) {
        const value = query[name];
        if (value === "" || (Array.isArray(value) && value.includes(""))) {
          throw errors.validation(name, "must not be empty");
        }
      }
    },
  };
}
