/**
 * The product catalogue's rules, without I/O: what an ASIN is, which marketplace a locale is, how a dataset row
 * becomes a product or a review, price bands, discounts and rating breakdowns.
 */

/** Amazon Standard Identification Number: 10 characters, letters and digits (ISBN-10s of books included). */
export const ASIN = /^[A-Za-z0-9]{10}$/;
export const ASIN_FORMAT = "must be an ASIN: 10 characters, letters and digits, such as B07CV4L6HX";

export function normalizeAsin(text: string): string | null {
  return ASIN.test(text) ? text.toUpperCase() : null;
}

/** The marketplaces the datasets cover, by locale (the marketplace's country code). */
export const MARKETPLACES = {
  CA: { marketplace: "amazon.ca", currency: "CAD" },
  US: { marketplace: "amazon.com", currency: "USD" },
} as const;
export type Locale = keyof typeof MARKETPLACES;
export const LOCALES = Object.keys(MARKETPLACES) as Locale[];

export function isLocale(text: string): text is Locale {
  return Object.hasOwn(MARKETPLACES, text);
}

/** A record that cannot become a row, with the reason reported by the ingestion. */
export class InvalidRecord extends Error {}

/**
 * How old the amazon.ca listings are: the file is a sample of Kaggle's "Amazon Canada Products 2023", which records
 * no day, so the year alone (an ISO 8601 date of year precision).
 */
const AMAZON_CA_AS_OF = "2023";

export type ProductRow = {
  asin: string;
  locale: Locale;
  dataset: string;
  title: string | null;
  brand: string | null;
  image_url: string | null;
  product_url: string | null;
  currency: string | null;
  price: number | null;
  list_price: number | null;
  rating: number | null;
  ratings_count: number | null;
  rating_basis: "marketplace" | "reviews";
  category_id: string | null;
  category_name: string | null;
  is_best_seller: boolean | null;
  bought_last_month: number | null;
  /** The date the price and rating are as of (see AMAZON_CA_AS_OF; a reviews-only product's newest review). */
  data_as_of: string | null;
  revision: number;
};

export type ReviewRow = {
  id: string;
  asin: string;
  locale: Locale;
  dataset: string;
  rating: number | null;
  title: string | null;
  body: string | null;
  author: string | null;
  author_id: string | null;
  reviewed_on: string;
  helpful_votes: number | null;
  total_votes: number | null;
  verified_purchase: boolean | null;
  revision: number;
};

/**
 * The amazon.ca file names categories with their "&" removed ("Industrial  Scientific"): the double space is where
 * it was, so it is put back for the name; the id is the name in lower case with dashes.
 */
export function categoryOf(raw: string): { id: string; name: string } {
  const name = raw.trim().replace(/\s{2,}/g, " & ");
  return { id: categoryId(name), name };
}

export function categoryId(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, " ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function requiredText(record: Record<string, string>, column: string): string {
  const value = (record[column] ?? "").trim();
  if (value === "") throw new InvalidRecord(`${column} is empty`);
  return value;
}

function optionalText(value: string | undefined): string | null {
  const trimmed = (value ?? "").trim();
  return trimmed === "" ? null : trimmed;
}

function decimal(record: Record<string, string>, column: string, max: number): number {
  const text = (record[column] ?? "").trim();
  const value = Number(text);
  if (text === "" || !Number.isFinite(value) || value < 0 || value > max) throw new InvalidRecord(`${column} "${text}" is not a number between 0 and ${max}`);
  return value;
}

function count(record: Record<string, string>, column: string): number {
  const text = (record[column] ?? "").trim();
  if (!/^\d{1,9}$/.test(text)) throw new InvalidRecord(`${column} "${text}" is not a whole number`);
  return Number(text);
}

function asinOf(record: Record<string, string>, column: string): string {
  const text = (record[column] ?? "").trim();
  const asin = normalizeAsin(text);
  if (!asin) throw new InvalidRecord(`${column} "${text}" is not an ASIN (10 letters and digits)`);
  return asin;
}

const cents = (value: number) => Math.round(value * 100) / 100;

/**
 * A row of amazon_ca_products.csv. The file writes "unknown" as 0: a price of 0.0 is no price, a list price of 0.0
 * is no list price, and 0.0 stars with 0 reviews is no rating.
 */
export function amazonCaProduct(record: Record<string, string>, line: number): ProductRow {
  const asin = asinOf(record, "asin");
  const price = decimal(record, "price", 1_000_000);
  const listPrice = decimal(record, "listPrice", 1_000_000);
  const stars = decimal(record, "stars", 5);
  const reviews = count(record, "reviews");
  const bestSeller = (record.isBestSeller ?? "").trim();
  if (bestSeller !== "True" && bestSeller !== "False") throw new InvalidRecord(`isBestSeller "${bestSeller}" is not True or False`);
  const category = categoryOf(requiredText(record, "categoryName"));
  return {
    asin,
    locale: "CA",
    dataset: "amazon-ca",
    title: requiredText(record, "title"),
    brand: null,
    image_url: optionalText(record.imgUrl),
    product_url: optionalText(record.productURL),
    currency: MARKETPLACES.CA.currency,
    price: price > 0 ? cents(price) : null,
    list_price: listPrice > 0 ? cents(listPrice) : null,
    rating: reviews > 0 && stars > 0 ? stars : null,
    ratings_count: reviews,
    rating_basis: "marketplace",
    category_id: category.id,
    category_name: category.name,
    is_best_seller: bestSeller === "True",
    bought_last_month: count(record, "boughtInLastMonth"),
    data_as_of: AMAZON_CA_AS_OF,
    revision: line,
  };
}

/**
 * A row of the Fine Food reviews file. An empty Score is kept as a review without rating (its text, author and date
 * are real); a Score that is present but not 1 to 5 makes the row malformed.
 */
export function fineFoodReview(record: Record<string, string>, line: number): ReviewRow {
  const id = (record.Id ?? "").trim();
  if (!/^\d{1,12}$/.test(id)) throw new InvalidRecord(`Id "${id}" is not a whole number`);
  const score = (record.Score ?? "").trim();
  if (score !== "" && !/^[1-5]$/.test(score)) throw new InvalidRecord(`Score "${score}" is not a rating from 1 to 5`);
  const time = (record.Time ?? "").trim();
  if (!/^\d{1,11}$/.test(time)) throw new InvalidRecord(`Time "${time}" is not a time in seconds since 1970`);
  const helpful = count(record, "HelpfulnessNumerator");
  const votes = count(record, "HelpfulnessDenominator");
  const title = optionalText(record.Summary);
  const body = optionalText(record.Text);
  if (title === null && body === null) throw new InvalidRecord("Summary and Text are both empty");
  return {
    id: `fine-food-${id}`,
    asin: asinOf(record, "ProductId"),
    locale: "US",
    dataset: "fine-food",
    rating: score === "" ? null : Number(score),
    title,
    body,
    author: optionalText(record.ProfileName),
    author_id: optionalText(record.UserId),
    reviewed_on: new Date(Number(time) * 1000).toISOString().slice(0, 10),
    helpful_votes: helpful,
    total_votes: votes,
    verified_purchase: null,
    revision: line,
  };
}

/** The price bands of /search's facets, in the product's own currency: [min, max) with the last one open. */
export const PRICE_BANDS: readonly { id: string; min: number; max: number | null }[] = [
  { id: "0-10", min: 0, max: 10 },
  { id: "10-25", min: 10, max: 25 },
  { id: "25-50", min: 25, max: 50 },
  { id: "50-100", min: 50, max: 100 },
  { id: "100-200", min: 100, max: 200 },
  { id: "200+", min: 200, max: null },
];

interface Discount {
  amount: number;
  percent: number;
}

/** What the list price saves, when the list price is above the price (percent rounded to a whole number, as shown on Amazon). */
export function discountOf(price: number | null, listPrice: number | null): Discount | null {
  if (price === null || listPrice === null || listPrice <= price) return null;
  return { amount: cents(listPrice - price), percent: Math.round(((listPrice - price) / listPrice) * 100) };
}

const STAR_NAMES = ["one_star", "two_star", "three_star", "four_star", "five_star"] as const;
export type RatingBreakdown = Record<(typeof STAR_NAMES)[number], { count: number; percent: number }>;

/** Counts of each rating (1 to 5) -> Rainforest's breakdown, with whole percentages of the rated reviews. */
export function ratingBreakdown(counts: ReadonlyMap<number, number>): RatingBreakdown {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const entries = STAR_NAMES.map((name, index) => {
    const n = counts.get(index + 1) ?? 0;
    return [name, { count: n, percent: total === 0 ? 0 : Math.round((n / total) * 100) }] as const;
  });
  // Five stars first, as Rainforest and Amazon show the breakdown.
  return Object.fromEntries(entries.reverse()) as RatingBreakdown;
}
