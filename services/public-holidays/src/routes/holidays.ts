import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import {
  answerNotModified,
  ApiError,
  errors,
  etagOf,
  ok,
  RenderedCache,
  sendSerializedData,
  setCacheHeaders,
  successSchema,
  type ServiceApp,
} from "@apiplat/service-kit";
import { localDate, secondsUntilLocalMidnight } from "../domain/calendar.js";
import type { HolidayEngine } from "../domain/engine.js";
import { findSubdivision, lookAheadEnd, mergeYears, onDate, parseTypes, select, upcoming, yearsCovering, type Selection } from "../domain/selection.js";
import { describeHint, hintFor } from "../domain/suggest.js";
import { DEFAULT_TYPES, HOLIDAY_TYPES, MAX_YEAR, MIN_YEAR, type Country } from "../domain/types.js";
import { CACHE_TTL_SECONDS, type HolidayCache } from "../cache/holiday-cache.js";
import { CountriesData, HolidaysData, HolidaysQuery, IsHolidayData, IsHolidayQuery, NextData, NextQuery } from "../schemas.js";

export interface HolidayRoutesOptions {
  engine: HolidayEngine;
  cache: HolidayCache;
  now: () => Date;
  /** Changes whenever the answers can change (engine version, service revision): part of every ETag. */
  dataVersion: string;
}

interface HolidayContext extends HolidayRoutesOptions {
  /** Answers already serialized, by ETag. */
  rendered: RenderedCache;
}

export const holidayRoutes: FastifyPluginAsyncTypebox<HolidayRoutesOptions> = async (app, options) => {
  const context = { ...options, rendered: new RenderedCache({ maxChars: 32 * 1024 * 1024 }) };
  holidaysRoute(app, context);
  nextRoute(app, context);
  isHolidayRoute(app, context);
  countriesRoute(app, context, countriesPayload(options.engine.listCountries()));
};

/** /holidays: a country's holidays in a year. */
function holidaysRoute(app: ServiceApp, { engine, cache, now, dataVersion, rendered }: HolidayContext): void {
  app.get(
    "/holidays",
    {
      schema: {
        summary: "Holidays of a country in a year",
        description:
          "Every holiday of the given types (default: public) of the country and year, national ones and regional ones " +
          "with the subdivisions that observe them. Substitute (observed) days are marked.",
        querystring: HolidaysQuery,
        response: { 200: successSchema(HolidaysData) },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const country = resolveCountry(engine, query.country);
      const selection = selectionOf(country, query.types, query.subdivision);
      const year = query.year ?? Number(localDate(now(), country.timezone).slice(0, 4));
      const etag = conditional(request, reply, [dataVersion, country.code, year, selection], CACHE_TTL_SECONDS);
      if (etag === null) return reply;
      const data = await rendered.render(etag, async () => {
        const holidays = select(await cache.year(country.code, year), selection);
        return { ...selectionEcho(country, selection, holidays.length), year, holidays };
      });
      return sendSerializedData(reply, data);
    },
  );
}

/** /next: the holidays of the coming 365 days. */
function nextRoute(app: ServiceApp, { engine, cache, now, dataVersion, rendered }: HolidayContext): void {
  app.get(
    "/next",
    {
      schema: {
        summary: "Upcoming holidays",
        description: "Holidays of the given types (default: public) from today, in the country's main time zone, through 365 days ahead.",
        querystring: NextQuery,
        response: { 200: successSchema(NextData) },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const country = resolveCountry(engine, query.country);
      const selection = selectionOf(country, query.types, query.subdivision);
      const instant = now();
      const today = localDate(instant, country.timezone);
      const maxAge = Math.min(CACHE_TTL_SECONDS, secondsUntilLocalMidnight(instant, country.timezone));
      const etag = conditional(request, reply, [dataVersion, country.code, today, selection], maxAge);
      if (etag === null) return reply;
      const data = await rendered.render(etag, async () => {
        const year = Number(today.slice(0, 4));
        const twoYears = mergeYears(await cache.year(country.code, year), await cache.year(country.code, year + 1));
        const holidays = upcoming(select(twoYears, selection), today);
        return { ...selectionEcho(country, selection, holidays.length), from: today, until: lookAheadEnd(today), holidays };
      });
      return sendSerializedData(reply, data);
    },
  );
}

/** /is-holiday: whether a date is a holiday, and which. */
function isHolidayRoute(app: ServiceApp, { engine, cache, now, dataVersion, rendered }: HolidayContext): void {
  app.get(
    "/is-holiday",
    {
      schema: {
        summary: "Is a date a holiday?",
        description:
          "Whether a date (default: today in the country's main time zone) is a holiday of the given types " +
          "(default: public), in the whole country or in one subdivision, and which holidays are in force on it.",
        querystring: IsHolidayQuery,
        response: { 200: successSchema(IsHolidayData) },
      },
    },
    async (request, reply) => {
      const { query } = request;
      const country = resolveCountry(engine, query.country);
      const selection = selectionOf(country, query.types, query.subdivision);
      const instant = now();
      const date = query.date ?? localDate(instant, country.timezone);
      const year = Number(date.slice(0, 4));
      if (year < MIN_YEAR || year > MAX_YEAR) {
        throw errors.validation("date", `must be from ${MIN_YEAR}-01-01 to ${MAX_YEAR}-12-31`);
      }
      const maxAge = query.date ? CACHE_TTL_SECONDS : secondsUntilLocalMidnight(instant, country.timezone);
      const etag = conditional(request, reply, [dataVersion, "is-holiday", country.code, date, selection], maxAge);
      if (etag === null) return reply;
      const data = await rendered.render(etag, async () => {
        const lists = await Promise.all(yearsCovering(date).map((covered) => cache.year(country.code, covered)));
        const holidays = onDate(select(lists.reduce(mergeYears), selection), date);
        return { ...selectionEcho(country, selection, holidays.length), date, is_holiday: holidays.length > 0, holidays };
      });
      return sendSerializedData(reply, data);
    },
  );
}

/** /countries: every supported country. */
function countriesRoute(app: ServiceApp, { dataVersion, rendered }: HolidayContext, countriesData: ReturnType<typeof countriesPayload>): void {
  app.get(
    "/countries",
    {
      schema: {
        summary: "Supported countries",
        description: "Every supported country: code, English name, main time zone, languages, subdivisions and local areas.",
        response: { 200: successSchema(CountriesData) },
      },
    },
    async (request, reply) => {
      const etag = conditional(request, reply, [dataVersion, "countries"], CACHE_TTL_SECONDS);
      if (etag === null) return reply;
      return sendSerializedData(reply, await rendered.render(etag, async () => countriesData));
    },
  );
}

function resolveCountry(engine: HolidayEngine, input: string): Country {
  const trimmed = input.trim();
  const country = /^[A-Za-z]{2}$/.test(trimmed) ? engine.getCountry(trimmed) : undefined;
  if (country) return country;
  const hint = hintFor(input, engine.listCountries());
  const suggestions = hint.suggestions.map((suggestion) => `${suggestion.code} (${suggestion.name})`).join(", ");
  // A query parameter naming something that does not exist is the caller's mistake (docs/DEVELOPING.md).
  throw new ApiError(400, "VALIDATION_ERROR", describeHint(input, hint), [
    { field: "country", issue: suggestions ? `is not supported; did you mean ${suggestions}?` : "is not supported" },
  ]);
}

function selectionOf(country: Country, typesParam: string | undefined, subdivisionParam: string | undefined): Selection {
  let types = DEFAULT_TYPES;
  if (typesParam !== undefined) {
    const parsed = parseTypes(typesParam);
    if (!parsed.ok) throw errors.validation("types", `has unknown types (${parsed.unknown.join(", ")}); allowed: ${HOLIDAY_TYPES.join(", ")}`);
    if (parsed.types.length === 0) throw errors.validation("types", `must name at least one of: ${HOLIDAY_TYPES.join(", ")}`);
    types = parsed.types;
  }
  if (subdivisionParam === undefined) return { types, subdivision: null };
  const subdivision = findSubdivision(country, subdivisionParam);
  if (!subdivision) {
    const issue =
      country.subdivisions.length === 0
        ? `must be omitted: ${country.code} has no subdivisions with holidays of their own`
        : `must be a subdivision or local area of ${country.code} (GET /countries lists them)`;
    throw errors.validation("subdivision", issue);
  }
  return { types, subdivision };
}

function selectionEcho(country: Country, selection: Selection, count: number) {
  return {
    country_code: country.code,
    country_name: country.name,
    timezone: country.timezone,
    local_language: country.languages[0],
    types: [...selection.types],
    subdivision: selection.subdivision?.code ?? null,
    count,
  };
}

/**
 * Sets Cache-Control and an ETag derived from everything the answer depends on (the question and the
 * data version, so no body needs hashing). Returns the ETag, or null after answering 304 to a client
 * that already holds it.
 */
function conditional(request: FastifyRequest, reply: FastifyReply, inputs: unknown[], maxAgeSeconds: number): string | null {
  const etag = etagOf(inputs);
  if (answerNotModified(request, reply, etag, maxAgeSeconds)) return null;
  setCacheHeaders(reply, etag, maxAgeSeconds);
  return etag;
}

function countriesPayload(countries: Country[]) {
  return {
    count: countries.length,
    countries: countries.map(({ code, name, timezone, languages, subdivisions }) => ({
      code,
      name,
      timezone,
      languages,
      subdivisions,
    })),
  };
}
