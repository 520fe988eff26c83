import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import {
  answerNotModified,
  errors,
  etagOf,
  ok,
  sendSerializedData,
  setCacheHeaders,
  successSchema,
  type ErrorDetail,
  type ServiceApp,
} from "@apiplat/service-kit";
import { amountIssue } from "../domain/amount.js";
import { currencyName, isKnownCurrency, minorUnits, PIVOT_CURRENCY } from "../domain/currencies.js";
import { ageDays, convert, crossRates, unservedCodes, type QuoteSet } from "../domain/exchange.js";
import { daysBetween, DEFAULT_RULE } from "../domain/rates.js";
import { SOURCES } from "../domain/adapters/index.js";
import { CACHE_TTL_SECONDS, type RatesService } from "../app/rates-service.js";
import type { RateStore } from "../store/rate-store.js";
import {
  ConvertData,
  ConvertQuery,
  CurrenciesData,
  DEFAULT_BASE,
  EARLIEST_DATE,
  HistoricalParams,
  LatestQuery,
  MAX_TIMESERIES_DAYS,
  RatesData,
  SourcesData,
  TimeseriesData,
  TimeseriesQuery,
} from "../schemas.js";

export interface RateRoutesOptions {
  rates: RatesService;
  store: RateStore;
}

function parseSymbols(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const codes = raw
    .split(",")
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
  const malformed = codes.filter((c) => !/^[A-Z]{3}$/.test(c));
  if (codes.length === 0) throw errors.validation("symbols", "must list at least one currency code");
  if (malformed.length) throw errors.validation("symbols", `must be comma-separated 3-letter ISO 4217 codes; not codes: ${malformed.join(", ")}`);
  return [...new Set(codes)].sort();
}

/** 400 naming every code that cannot be served, per field. */
function requireCodes(quotes: QuoteSet, asOf: string, fields: Array<[string, string[]]>): void {
  const details: ErrorDetail[] = [];
  for (const [field, codes] of fields) {
    const { unknown, unquoted } = unservedCodes(quotes, codes);
    if (unknown.length) details.push({ field, issue: `has unknown currency codes: ${unknown.join(", ")} (GET /currencies lists the supported ones)` });
    if (unquoted.length) details.push({ field, issue: `has no rate as of ${asOf} for: ${unquoted.join(", ")}` });
  }
  if (details.length) throw errors.validationMany(details);
}

/** For a period, where a currency may be quoted on some days only: refuse codes that are no currency at all. */
function requireKnown(fields: Array<[string, string[]]>): void {
  const details = fields.flatMap(([field, codes]) => {
    const unknown = codes.filter((c) => !isKnownCurrency(c));
    return unknown.length ? [{ field, issue: `has unknown currency codes: ${unknown.join(", ")} (GET /currencies lists the supported ones)` }] : [];
  });
  if (details.length) throw errors.validationMany(details);
}

function isCalendarDay(date: string): boolean {
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date;
}

function checkDay(field: string, date: string, today: string): void {
  if (!isCalendarDay(date)) throw errors.validation(field, "must be a calendar date YYYY-MM-DD");
  if (date < EARLIEST_DATE || date > today) throw errors.validation(field, `must be between ${EARLIEST_DATE} and today (${today})`);
}

function notFoundForDate(date: string): never {
  throw errors.notFound(`No bank published rates on ${date} or in the ${DEFAULT_RULE.historicalLookbackDays} days before it.`);
}

export const rateRoutes: FastifyPluginAsyncTypebox<RateRoutesOptions> = async (app, { rates, store }) => {
  latestRoute(app, rates);
  historicalRoute(app, rates);
  timeseriesRoute(app, rates);
  convertRoute(app, rates);
  currenciesRoute(app, rates);
  sourcesRoute(app, store);
};

/**
 * The answer for `key` from the one-hour response cache or computed; X-Cache says which. Cache-Control and
 * ETag are set once the answer exists, so errors never carry them.
 */
async function sendCached(rates: RatesService, reply: FastifyReply, key: unknown[], etag: string, compute: () => Promise<unknown>) {
  const { json, hit } = await rates.cached(key.join(":"), compute);
  setCacheHeaders(reply, etag, CACHE_TTL_SECONDS).header("x-cache", hit ? "HIT" : "MISS");
  return sendSerializedData(reply, json);
}

/** ETag of a request's answer: what it depends on is the data version, the day and the request itself. */
function etagFor(rates: RatesService, key: unknown[]): string {
  return etagOf([rates.dataVersion, rates.today(), key]);
}

function latestRoute(app: ServiceApp, rates: RatesService): void {
  app.get(
    "/latest",
    {
      schema: {
        summary: "Latest rates",
        description:
          `Rates for 1 unit of base (default ${DEFAULT_BASE}) against every supported currency or the listed symbols, from the ` +
          "latest table of each central bank; `date`, `oldest_date` and `age_days` say how old they are.",
        querystring: LatestQuery,
        response: { 200: successSchema(RatesData) },
      },
    },
    async (request, reply) => {
      const base = (request.query.base ?? DEFAULT_BASE).toUpperCase();
      const symbols = parseSymbols(request.query.symbols);
      const provenance = request.query.provenance ?? false;
      const key = ["latest", base, symbols?.join(",") ?? "*", provenance];
      const etag = etagFor(rates, key);
      if (answerNotModified(request, reply, etag, CACHE_TTL_SECONDS)) return reply;
      return sendCached(rates, reply, key, etag, async () => {
        const quotes = await rates.latestQuotes();
        if (quotes.size === 0) throw errors.unavailable("No rates are loaded yet; the first fetch or ingest has not run.");
        const today = rates.today();
        requireCodes(quotes, today, [
          ["base", [base]],
          ["symbols", symbols ?? []],
        ]);
        const { provenance: sources, ...view } = crossRates(quotes, base, symbols);
        return { ...view, age_days: ageDays(view.date, rates.now()), ...(provenance ? { provenance: sources } : {}) };
      });
    },
  );
}

function historicalRoute(app: ServiceApp, rates: RatesService): void {
  app.get(
    "/historical/:date",
    {
      schema: {
        summary: "Rates of a past day",
        description:
          "Rates as they stood on the day: each bank's latest table published on or up to 14 days before it (weekends and " +
          `bank holidays carry the previous table). Days from ${EARLIEST_DATE}.`,
        params: HistoricalParams,
        querystring: LatestQuery,
        response: { 200: successSchema(RatesData) },
      },
    },
    async (request, reply) => {
      const { date } = request.params;
      checkDay("date", date, rates.today());
      const base = (request.query.base ?? DEFAULT_BASE).toUpperCase();
      const symbols = parseSymbols(request.query.symbols);
      const provenance = request.query.provenance ?? false;
      const key = ["historical", date, base, symbols?.join(",") ?? "*", provenance];
      const etag = etagFor(rates, key);
      if (answerNotModified(request, reply, etag, CACHE_TTL_SECONDS)) return reply;
      return sendCached(rates, reply, key, etag, async () => {
        const quotes = await rates.historicalQuotes(date);
        if (quotes.size === 0) notFoundForDate(date);
        requireCodes(quotes, date, [
          ["base", [base]],
          ["symbols", symbols ?? []],
        ]);
        const { provenance: sources, ...view } = crossRates(quotes, base, symbols);
        return { ...view, requested_date: date, age_days: ageDays(view.date, rates.now()), ...(provenance ? { provenance: sources } : {}) };
      });
    },
  );
}

function timeseriesRoute(app: ServiceApp, rates: RatesService): void {
  app.get(
    "/timeseries",
    {
      schema: {
        summary: "Rates over a period",
        description:
          `Rates for every day in [start, end] on which at least one bank published, each as /historical gives it; at most ` +
          `${MAX_TIMESERIES_DAYS} days (both ends counted). Days on which the base has no rate are left out.`,
        querystring: TimeseriesQuery,
        response: { 200: successSchema(TimeseriesData) },
      },
    },
    async (request, reply) => {
      const { start, end } = request.query;
      const today = rates.today();
      checkDay("start", start, today);
      checkDay("end", end, today);
      if (end < start) throw errors.validation("end", "must not be before start");
      if (daysBetween(start, end) + 1 > MAX_TIMESERIES_DAYS)
        throw errors.validation("end", `must be at most ${MAX_TIMESERIES_DAYS} days from start, both counted`);
      const base = (request.query.base ?? DEFAULT_BASE).toUpperCase();
      const symbols = parseSymbols(request.query.symbols);
      const key = ["timeseries", start, end, base, symbols?.join(",") ?? "*"];
      const etag = etagFor(rates, key);
      if (answerNotModified(request, reply, etag, CACHE_TTL_SECONDS)) return reply;
      requireKnown([
        ["base", [base]],
        ["symbols", symbols ?? []],
      ]);
      return sendCached(rates, reply, key, etag, async () => {
        const series = await rates.seriesQuotes(start, end, symbols ? new Set([base, ...symbols]) : undefined);
        const byDate: Record<string, Record<string, number>> = {};
        for (const { date, quotes } of series) {
          if (base !== PIVOT_CURRENCY && !quotes.has(base)) continue;
          const wanted = symbols?.filter((s) => s === PIVOT_CURRENCY || quotes.has(s)) ?? null;
          if (wanted?.length === 0) continue;
          byDate[date] = crossRates(quotes, base, wanted).rates;
        }
        return { base, start_date: start, end_date: end, dates: Object.keys(byDate).length, rates: byDate };
      });
    },
  );
}

function convertRoute(app: ServiceApp, rates: RatesService): void {
  app.get(
    "/convert",
    {
      schema: {
        summary: "Convert an amount",
        description:
          "amount x rate in exact decimal arithmetic; rate has 12 significant digits and result is rounded half away from " +
          "zero to `places` decimals (default: the minor unit of `to`). Amounts and results are decimal strings.",
        querystring: ConvertQuery,
        response: { 200: successSchema(ConvertData) },
      },
    },
    async (request, reply) => {
      const from = request.query.from.toUpperCase();
      const to = request.query.to.toUpperCase();
      const { amount, date } = request.query;
      const issue = amountIssue(amount);
      if (issue) throw errors.validation("amount", issue);
      const today = rates.today();
      if (date !== undefined) checkDay("date", date, today);
      const places = request.query.places ?? minorUnits(to);
      const provenance = request.query.provenance ?? false;
      const key = ["convert", from, to, amount.trim(), places, date ?? "latest", provenance];
      const etag = etagFor(rates, key);
      if (answerNotModified(request, reply, etag, CACHE_TTL_SECONDS)) return reply;
      return sendCached(rates, reply, key, etag, async () => {
        const quotes = date ? await rates.historicalQuotes(date) : await rates.latestQuotes();
        if (quotes.size === 0) {
          if (date) notFoundForDate(date);
          throw errors.unavailable("No rates are loaded yet; the first fetch or ingest has not run.");
        }
        requireCodes(quotes, date ?? today, [
          ["from", [from]],
          ["to", [to]],
        ]);
        const { provenance: sources, ...conversion } = convert(quotes, from, to, amount.trim(), places);
        return { ...conversion, age_days: ageDays(conversion.date, rates.now()), ...(provenance ? { provenance: sources } : {}) };
      });
    },
  );
}

function currenciesRoute(app: ServiceApp, rates: RatesService): void {
  app.get(
    "/currencies",
    {
      schema: {
        summary: "Supported currencies",
        description: "Every currency with a latest rate: ISO 4217 code, English name, minor unit, the bank whose rate is used and every bank quoting it.",
        response: { 200: successSchema(CurrenciesData) },
      },
    },
    async (request, reply) => {
      const etag = etagFor(rates, ["currencies"]);
      if (answerNotModified(request, reply, etag, CACHE_TTL_SECONDS)) return reply;
      return sendCached(rates, reply, ["currencies"], etag, async () => {
        const quotes = await rates.latestQuotes();
        if (quotes.size === 0) throw errors.unavailable("No rates are loaded yet; the first fetch or ingest has not run.");
        const coverage = await rates.coverageToday();
        const codes = [...quotes.keys(), PIVOT_CURRENCY].sort();
        const currencies = codes.map((code) => {
          const quote = quotes.get(code);
          return {
            code,
            name: currencyName(code),
            minor_units: minorUnits(code),
            rate_source: quote?.source ?? null,
            rate_date: quote?.date ?? null,
            sources: SOURCES.map((s) => s.id).filter((id) => coverage.get(id)?.has(code)),
          };
        });
        const date = crossRates(quotes, PIVOT_CURRENCY, null).date;
        return { count: currencies.length, date, currencies };
      });
    },
  );
}

function sourcesRoute(app: ServiceApp, store: RateStore): void {
  app.get(
    "/sources",
    {
      schema: {
        summary: "Central-bank feeds",
        description: "Each bank feed: home currency, when it publishes, its latest table, and how its last scheduled fetch went.",
        response: { 200: successSchema(SourcesData) },
      },
    },
    async () => {
      const states = await store.sourceStates();
      return ok({
        sources: SOURCES.map((info) => {
          const state = states.find((s) => s.source === info.id);
          return {
            id: info.id,
            name: info.name,
            home_currency: info.home,
            publishes: info.publishes,
            latest_date: state?.latest_date ?? null,
            tables: state?.tables ?? 0,
            last_fetch: state?.last_fetch ?? null,
          };
        }),
      });
    },
  );
}
