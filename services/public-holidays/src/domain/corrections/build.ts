import type { Correction } from "./types.js";

/** Names by language, English first: `{ en: "Army Day", ar: "عيد الجيش" }`. */
export type Names = Record<string, string> & { en: string };

type Details = Partial<Correction>;

/**
 * The corrections of one country, one call each: every entry carries the country's id prefix and `source` unless
 * it has a source of its own.
 */
export function correctionsOf(country: string, source: string) {
  const correction = (action: Correction["action"], id: string, rule: string, details: Details): Correction => ({
    id: `${country}-${id}`,
    country,
    action,
    rule,
    source,
    ...details,
  });
  return {
    add: (id: string, rule: string, name: Names, details: Details = {}) => correction("add", id, rule, { name, ...details }),
    remove: (id: string, rule: string, details: Details = {}) => correction("remove", id, rule, details),
    nationwide: (id: string, rule: string, details: Details = {}) => correction("nationwide", id, rule, details),
  };
}

/** From `from` on, with why that year where it is not obvious. */
export function since(from: number, note?: string): Partial<Correction> {
  return note === undefined ? { years: { from } } : { years: { from }, note };
}
