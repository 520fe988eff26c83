import { crossRate, daysBetween, type Quote } from "./rates.js";
import { isKnownCurrency, PIVOT_CURRENCY } from "./currencies.js";
import { canonicalAmount, multiplyRounded } from "./decimal.js";
import type { SourceId } from "./types.js";

export type QuoteSet = Map<string, Quote>;

export interface Provenance {
  source: SourceId;
  date: string;
}

/** Codes the caller gave that cannot be served: not a currency we know at all, or one with no rate on the date. */
export function unservedCodes(quotes: QuoteSet, codes: string[]): { unknown: string[]; unquoted: string[] } {
  const missing = [...new Set(codes)].filter((code) => code !== PIVOT_CURRENCY && !quotes.has(code));
  return { unknown: missing.filter((c) => !isKnownCurrency(c)), unquoted: missing.filter((c) => isKnownCurrency(c)) };
}

function quoteOf(quotes: QuoteSet, code: string): Quote | "EUR" {
  if (code === PIVOT_CURRENCY) return "EUR";
  const quote = quotes.get(code);
  if (!quote) throw new Error(`no quote for ${code}`);
  return quote;
}

/** Newest and oldest publication date of the quotes used; EUR alone (the pivot) takes the newest of the set. */
function dateSpan(quotes: QuoteSet, used: Array<Quote | "EUR">): { date: string; oldest: string } {
  let dates = used.flatMap((q) => (q === "EUR" ? [] : [q.date])).sort();
  if (dates.length === 0)
    dates = [...quotes.values()]
      .map((q) => q.date)
      .sort()
      .slice(-1);
  if (dates.length === 0) throw new Error("empty quote set");
  return { date: dates[dates.length - 1], oldest: dates[0] };
}

interface CrossRates {
  base: string;
  date: string;
  oldest_date: string;
  rates: Record<string, number>;
  provenance: Record<string, Provenance>;
}

/**
 * Rates of `symbols` (every quoted currency but the base when null) for 1 unit of `base`, in alphabetical order.
 * `date` is the newest publication date among the quotes used (base included), `oldest_date` the oldest.
 */
export function crossRates(quotes: QuoteSet, base: string, symbols: string[] | null): CrossRates {
  const baseQuote = quoteOf(quotes, base);
  const targets = symbols ?? [...quotes.keys(), PIVOT_CURRENCY].filter((c) => c !== base);
  const rates: Record<string, number> = {};
  const provenance: Record<string, Provenance> = {};
  const used: Array<Quote | "EUR"> = [baseQuote];
  for (const code of [...new Set(targets)].sort()) {
    const target = quoteOf(quotes, code);
    used.push(target);
    rates[code] = Number(crossRate(baseQuote, target));
    if (target !== "EUR") provenance[code] = { source: target.source, date: target.date };
  }
  if (baseQuote !== "EUR") provenance[base] = { source: baseQuote.source, date: baseQuote.date };
  const span = dateSpan(quotes, used);
  return { base, date: span.date, oldest_date: span.oldest, rates, provenance };
}

interface Conversion {
  from: string;
  to: string;
  amount: string;
  rate: string;
  result: string;
  places: number;
  date: string;
  oldest_date: string;
  provenance: Record<string, Provenance>;
}

export function convert(quotes: QuoteSet, from: string, to: string, amount: string, places: number): Conversion {
  const fromQuote = quoteOf(quotes, from);
  const toQuote = quoteOf(quotes, to);
  const span = dateSpan(quotes, [fromQuote, toQuote]);
  const rate = from === to ? "1" : crossRate(fromQuote, toQuote);
  const provenance: Record<string, Provenance> = {};
  for (const [code, q] of [
    [from, fromQuote],
    [to, toQuote],
  ] as const)
    if (q !== "EUR") provenance[code] = { source: q.source, date: q.date };
  return {
    from,
    to,
    amount: canonicalAmount(amount),
    rate,
    result: multiplyRounded(amount, rate, places),
    places,
    date: span.date,
    oldest_date: span.oldest,
    provenance,
  };
}

/** Whole days between the publication date and today (UTC), never negative. */
export function ageDays(date: string, now: Date): number {
  return Math.max(0, daysBetween(date, now.toISOString().slice(0, 10)));
}
