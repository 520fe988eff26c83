import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { errors, ok, successSchema } from "@apiplat/service-kit";
import { parseInstant, parseWallTime } from "../domain/iso-input.js";
import { AmbiguousWallTimeError, UnknownCountryError, UnknownZoneError, type TimeZones } from "../domain/time-zones.js";
import * as S from "../schemas.js";

interface TimeZoneRouteOptions {
  zones: TimeZones;
  now: () => Date;
}

function unknownZone(error: UnknownZoneError) {
  const hint = error.suggestions.length > 0 ? `did you mean ${error.suggestions.join(", ")}?` : "see /list for every name";
  return errors.validation(error.field, `is not a known IANA time zone (${hint})`, `${error.field} "${error.input}" is not a known IANA time zone; ${hint}`);
}

/** Maps the domain's refusals to the shared error envelope. */
function answer<T>(compute: () => T): T {
  try {
    return compute();
  } catch (error) {
    if (error instanceof UnknownZoneError) throw unknownZone(error);
    if (error instanceof UnknownCountryError) {
      throw errors.validation("country", "is not an ISO 3166-1 alpha-2 code the tz database knows");
    }
    if (error instanceof AmbiguousWallTimeError) {
      const issue = error.resolution.kind === "gap" ? "falls in a DST gap" : "falls in a DST overlap";
      throw errors.unprocessable(`${error.message} Choose disambiguation=earlier or later, or compatible.`, [{ field: "time", issue }]);
    }
    throw error;
  }
}

export const timeZoneRoutes: FastifyPluginAsyncTypebox<TimeZoneRouteOptions> = async (app, { zones, now }) => {
  app.get(
    "/lookup",
    {
      schema: {
        summary: "Current (or given) time and offset details of a zone",
        querystring: S.LookupQuery,
        response: { 200: successSchema(S.LookupData) },
      },
    },
    async (request) => {
      let instant = Math.floor(now().getTime() / 1000);
      if (request.query.at !== undefined) {
        const parsed = parseInstant(request.query.at);
        if (!parsed.ok) throw errors.validation("at", parsed.issue);
        instant = parsed.value;
      }
      return ok(answer(() => zones.lookup(request.query.tz, instant)));
    },
  );

  app.get(
    "/convert",
    {
      schema: {
        summary: "Convert a local date-time from one zone to another",
        querystring: S.ConvertQuery,
        response: { 200: successSchema(S.ConvertData) },
      },
    },
    async (request) => {
      const { time, from, to, disambiguation } = request.query;
      const wall = parseWallTime(time);
      if (!wall.ok) throw errors.validation("time", wall.issue);
      return ok(answer(() => zones.convert(wall.value, from, to, disambiguation ?? "compatible")));
    },
  );

  app.get(
    "/transitions",
    {
      schema: {
        summary: "Every change of offset, DST or abbreviation of a zone in a year",
        querystring: S.TransitionsQuery,
        response: { 200: successSchema(S.TransitionsData) },
      },
    },
    async (request) => {
      const year = request.query.year ?? now().getUTCFullYear();
      return ok(answer(() => zones.transitions(request.query.tz, year)));
    },
  );

  app.get(
    "/list",
    {
      schema: {
        summary: "IANA zones and their aliases, optionally filtered",
        querystring: S.ListQuery,
        response: { 200: successSchema(S.ListData) },
      },
    },
    async (request) => {
      const instant = Math.floor(now().getTime() / 1000);
      const { q, kind, country } = request.query;
      return ok(answer(() => zones.list({ query: q, kind: kind ?? "all", country }, instant)));
    },
  );
};
