import { FeedFormatError, type PublishedRate } from "../types.js";
import { isKnownCurrency } from "../currencies.js";

const DECIMAL = /^\d{1,12}(\.\d{1,12})?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A published figure as a canonical decimal string, or null when it is not a positive number ("N.A.", "0"). */
function publishedDecimal(raw: unknown): string | null {
  if (typeof raw === "number") raw = String(raw);
  if (typeof raw !== "string") return null;
  const text = raw.trim().replace(",", ".");
  if (!DECIMAL.test(text) || /^0+(\.0+)?$/.test(text)) return null;
  return text;
}

export function isoDate(raw: unknown, feed: string): string {
  if (typeof raw !== "string" || !ISO_DATE.test(raw.trim())) throw new FeedFormatError(`${feed}: bad date ${JSON.stringify(raw)}`);
  const date = raw.trim();
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== date) {
    throw new FeedFormatError(`${feed}: bad date ${date}`);
  }
  return date;
}

/** Keeps ISO fiat codes only (drops XDR, metals, legacy non-ISO codes) and the first row of a repeated code. */
export function fiatRate(seen: Set<string>, code: unknown, value: unknown, units = 1): PublishedRate | null {
  if (typeof code !== "string") return null;
  const currency = code.trim().toUpperCase();
  if (!isKnownCurrency(currency) || seen.has(currency)) return null;
  const decimal = publishedDecimal(value);
  if (decimal === null || !Number.isInteger(units) || units <= 0) return null;
  seen.add(currency);
  return { currency, value: decimal, units };
}

export function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
