export const SOURCE_IDS = ["ecb", "nbp-a", "nbp-b", "bdi", "cbr", "boc"] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

/**
 * How a bank states a rate: "foreign_per_home" = `value` units of the foreign currency buy 1 unit of the
 * bank's home currency (ECB: 1 EUR = 1.0856 USD); "home_per_foreign" = `value` units of the home currency
 * buy `units` units of the foreign currency (CBR: 100 JPY = 53.7 RUB).
 */
export type QuoteStyle = "foreign_per_home" | "home_per_foreign";

/** One rate exactly as the bank published it. */
export interface PublishedRate {
  currency: string;
  /** Decimal string as published (a decimal comma already turned into a point). */
  value: string;
  units: number;
}

/** Every rate one bank published for one date. */
export interface RateTable {
  source: SourceId;
  /** YYYY-MM-DD as the bank states it (publication or effective date). */
  date: string;
  home: string;
  quoteStyle: QuoteStyle;
  rates: PublishedRate[];
}

export class FeedFormatError extends Error {
  override name = "FeedFormatError";
}
