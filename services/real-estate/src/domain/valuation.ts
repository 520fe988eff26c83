/**
 * The automated valuation model (AVM): comparable sales with hedonic adjustments.
 *
 * At ingestion, each market gets a log-linear hedonic model fitted by least squares on its sales:
 *   ln(price) = b0 + b1 ln(sqft) + b2 bedrooms + b3 bathrooms [+ b4 age + b5 age^2] [+ b6 months since the first sale]
 * (a term is used only when the market's data has it: only King County has year built and a year of dates).
 * A valuation takes the K most similar sales near the subject (distance, size, age, type), moves each comparable's
 * price to the subject's attributes and date with the model's coefficients (price * exp(b . (x_subject - x_comp))),
 * and averages the adjusted log prices weighted by similarity. Location is carried by the comparables themselves.
 *
 * The interval is calibrated at ingestion (calibration.ts). A subject's own records (its earlier sales, its listing)
 * are never its comparables (subjectRecords). Everything here is pure: the caller brings the sales.
 */
import { distanceKm } from "./geo.js";

const FEATURES = ["log_sqft", "bedrooms", "bathrooms", "age", "age2", "months"] as const;
export type Feature = (typeof FEATURES)[number];

/** How many comparables a valuation uses. */
const COMPARABLES = 12;
/** How many of the nearest sales are considered as comparables. */
export const CANDIDATES = 300;
/** The share of sales the interval is meant to hold. */
export const INTERVAL_COVERAGE = 0.8;

export interface Sale {
  id: string;
  address: string | null;
  latitude: number;
  longitude: number;
  price: number;
  living_sqft: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  year_built: number | null;
  property_type: string | null;
  /** Sale date (YYYY-MM-DD), null for listings. */
  date: string | null;
  /** The property the record is of (see propertyKey): several sales of one house share it. */
  property_key: string | null;
}

export interface Subject {
  latitude: number;
  longitude: number;
  living_sqft: number;
  bedrooms?: number | null;
  bathrooms?: number | null;
  year_built?: number | null;
  property_type?: string | null;
  /** The date the value is for (YYYY-MM-DD); the model's newest sale when absent. */
  date?: string | null;
}

export interface ValuationModel {
  market: string;
  features: Feature[];
  /** Intercept first, then one per feature. */
  coefficients: number[];
  /** The first and last sale dates (months are counted from the first). */
  first_date: string | null;
  newest_date: string | null;
  sales: number;
  interval: { coverage: number; low_log: number; high_log: number; calibrated_on: number; median_ape: number; coverage_in_sample: number };
  /** Spread of the comparables' adjusted log prices at the 33rd and 67th percentile of the calibration: confidence bands. */
  spread_terciles: [number, number];
}

const DAY_MS = 86_400_000;
const MONTH_DAYS = 30.4375;

function months(date: string, from: string): number {
  return (Date.parse(date) - Date.parse(from)) / DAY_MS / MONTH_DAYS;
}

/** The value of one feature for a sale or a subject; null when the data lacks it. */
function featureValue(feature: Feature, x: Omit<Subject, "latitude" | "longitude">, firstDate: string | null): number | null {
  switch (feature) {
    case "log_sqft":
      return x.living_sqft && x.living_sqft > 0 ? Math.log(x.living_sqft) : null;
    case "bedrooms":
      return x.bedrooms == null ? null : Math.min(x.bedrooms, 8);
    case "bathrooms":
      return x.bathrooms == null ? null : Math.min(x.bathrooms, 8);
    case "age":
      return x.year_built == null ? null : (x.year_built - 1960) / 10;
    case "age2":
      return x.year_built == null ? null : ((x.year_built - 1960) / 10) ** 2;
    case "months":
      return x.date && firstDate ? months(x.date, firstDate) : null;
  }
}

function saleAttributes(sale: Sale): Omit<Subject, "latitude" | "longitude"> {
  return { living_sqft: sale.living_sqft ?? 0, bedrooms: sale.bedrooms, bathrooms: sale.bathrooms, year_built: sale.year_built, date: sale.date };
}

/** Least squares with a tiny ridge (keeps a degenerate column from breaking the solve). */
function leastSquares(rows: number[][], targets: number[]): number[] {
  const p = rows[0].length;
  const a = Array.from({ length: p }, () => new Array<number>(p + 1).fill(0));
  rows.forEach((row, n) => {
    for (let i = 0; i < p; i++) {
      for (let j = 0; j < p; j++) a[i][j] += row[i] * row[j];
      a[i][p] += row[i] * targets[n];
    }
  });
  for (let i = 1; i < p; i++) a[i][i] += 1e-6 * rows.length;
  for (let col = 0; col < p; col++) {
    let pivot = col;
    for (let r = col + 1; r < p; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    for (let r = 0; r < p; r++) {
      if (r === col || a[col][col] === 0) continue;
      const f = a[r][col] / a[col][col];
      for (let c = col; c <= p; c++) a[r][c] -= f * a[col][c];
    }
  }
  return a.map((row, i) => (row[i] === 0 ? 0 : row[p] / row[i]));
}

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** The features a market's data supports: those that at least 95 % of its priced, sized sales have. */
function supportedFeatures(sales: Sale[], firstDate: string | null, newestDate: string | null): Feature[] {
  const spanMonths = firstDate && newestDate ? months(newestDate, firstDate) : 0;
  return FEATURES.filter((feature) => {
    if (feature === "months" && spanMonths < 3) return false;
    const known = sales.filter((s) => featureValue(feature, saleAttributes(s), firstDate) !== null).length;
    return known >= 0.95 * sales.length;
  });
}

/** The sales a model can use: priced, sized, placed, with every feature of the model. */
export function usableSales(sales: Sale[], model: Pick<ValuationModel, "features" | "first_date">): Sale[] {
  return sales.filter(
    (s) => s.price > 0 && s.living_sqft && s.living_sqft > 0 && model.features.every((f) => featureValue(f, saleAttributes(s), model.first_date) !== null),
  );
}

/** Fits the hedonic coefficients of one market (without its interval: see calibrate). */
export function fitHedonicModel(market: string, allSales: Sale[]): Omit<ValuationModel, "interval" | "spread_terciles"> {
  const sized = allSales.filter((s) => s.price > 0 && s.living_sqft && s.living_sqft > 0);
  const dates = sized
    .map((s) => s.date)
    .filter((d): d is string => d !== null)
    .sort();
  const firstDate = dates[0] ?? null;
  const newestDate = dates.at(-1) ?? null;
  const features = supportedFeatures(sized, firstDate, newestDate);
  const sales = usableSales(sized, { features, first_date: firstDate });
  // The fit ignores the 1 % cheapest and dearest per square foot (a $1 transfer, a typo, a penthouse).
  const ppsf = sales.map((s) => s.price / s.living_sqft!).sort((a, b) => a - b);
  const [low, high] = [quantile(ppsf, 0.01), quantile(ppsf, 0.99)];
  const fitted = sales.filter((s) => s.price / s.living_sqft! >= low && s.price / s.living_sqft! <= high);
  const rows = fitted.map((s) => [1, ...features.map((f) => featureValue(f, saleAttributes(s), firstDate)!)]);
  const coefficients =
    rows.length > features.length + 1
      ? leastSquares(
          rows,
          fitted.map((s) => Math.log(s.price)),
        )
      : [0, ...features.map(() => 0)];
  return { market, features, coefficients, first_date: firstDate, newest_date: newestDate, sales: sales.length };
}

export interface Comparable {
  sale: Sale;
  distance_km: number;
  similarity: number;
  adjusted_price: number;
}

export interface Valuation {
  /** ln of the estimate. */
  log_value: number;
  /** Weighted standard deviation of the comparables' adjusted log prices. */
  spread: number;
  comparables: Comparable[];
}

/** How unlike the subject a sale is: kilometres, plus size, age and type differences in kilometre-like units. */
function dissimilarity(subject: Subject, sale: Sale, distance: number): number {
  let score = distance + 3 * Math.abs(Math.log(subject.living_sqft / sale.living_sqft!));
  if (subject.year_built != null && sale.year_built != null) score += Math.abs(subject.year_built - sale.year_built) / 30;
  if (subject.property_type && sale.property_type && subject.property_type !== sale.property_type) score += 1;
  return score;
}

/** Values the subject from candidate sales (usually the nearest CANDIDATES); null when none is usable. */
export function valueFromComparables(subject: Subject, candidates: Sale[], model: ValuationModel, k = COMPARABLES): Valuation | null {
  const scored = usableSales(candidates, model).map((sale) => {
    const distance = distanceKm(subject.latitude, subject.longitude, sale.latitude, sale.longitude);
    return { sale, distance, score: dissimilarity(subject, sale, distance) };
  });
  if (scored.length === 0) return null;
  scored.sort((a, b) => a.score - b.score || a.sale.id.localeCompare(b.sale.id));
  const chosen = scored.slice(0, k);
  const subjectAttributes = { ...subject, date: subject.date ?? model.newest_date };
  const adjusted = chosen.map(({ sale }) => {
    let value = Math.log(sale.price);
    model.features.forEach((feature, i) => {
      const mine = featureValue(feature, subjectAttributes, model.first_date);
      // A fact the subject does not give is taken as the comparable's: no adjustment for it.
      if (mine !== null) value += model.coefficients[i + 1] * (mine - featureValue(feature, saleAttributes(sale), model.first_date)!);
    });
    return value;
  });
  const weights = chosen.map((c) => 1 / (0.2 + c.score));
  const total = weights.reduce((a, b) => a + b, 0);
  const mean = adjusted.reduce((sum, v, i) => sum + v * weights[i], 0) / total;
  const spread = Math.sqrt(adjusted.reduce((sum, v, i) => sum + weights[i] * (v - mean) ** 2, 0) / total);
  return {
    log_value: mean,
    spread,
    comparables: chosen.map((c, i) => ({
      sale: c.sale,
      distance_km: c.distance,
      similarity: 1 / (1 + c.score),
      adjusted_price: Math.exp(adjusted[i]),
    })),
  };
}

/** A small seeded generator (mulberry32): calibration samples and the evaluation's split are reproducible. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A record this close to the subject, with its living area and year built, is taken for the subject itself. */
export const SAME_SPOT_KM = 0.025;
/** Living areas within 2 % of each other are one (a remeasured house, a rounded figure). */
const SAME_AREA = Math.log(1.02);

/**
 * Whether a record at `distance` km could be the subject itself: on the same spot (25 m: King County's coordinates
 * are rounded to about 10 m), with the same living area (within 2 %) and the same year built where both sides know
 * it (bedrooms are not compared: an owner may count a den the record does not). Such a record is never a comparable: it is the subject's own sale, or one that cannot be
 * told apart from it without an address (the twin of a pair of townhouses, a flat of the same size in one building).
 */
export function looksLikeSubject(subject: Subject, record: Sale, distance: number): boolean {
  if (distance > SAME_SPOT_KM || !record.living_sqft) return false;
  if (Math.abs(Math.log(subject.living_sqft / record.living_sqft)) > SAME_AREA) return false;
  if (subject.year_built != null && record.year_built != null && subject.year_built !== record.year_built) return false;
  return true;
}

interface SubjectRecords {
  /** The properties (see propertyKey) whose every record is the subject's. */
  keys: Set<string>;
  /** Records taken for the subject that have no property key. */
  ids: Set<string>;
  excludes(record: Sale): boolean;
}

/**
 * The records that are the subject's and never its comparables: those of its own property (`propertyKey`: its
 * parcel or address, when the subject was identified), those that look like it (`looksLikeSubject`, among `nearby`:
 * the records within SAME_SPOT_KM) and every other record of their properties.
 */
export function subjectRecords(subject: Subject, propertyKey: string | null, nearby: readonly Sale[]): SubjectRecords {
  const keys = new Set<string>(propertyKey ? [propertyKey] : []);
  const ids = new Set<string>();
  for (const record of nearby) {
    if (!looksLikeSubject(subject, record, distanceKm(subject.latitude, subject.longitude, record.latitude, record.longitude))) continue;
    if (record.property_key) keys.add(record.property_key);
    else ids.add(record.id);
  }
  return { keys, ids, excludes: (record) => ids.has(record.id) || (record.property_key !== null && keys.has(record.property_key)) };
}

/** A price of `fromDate` moved to `toDate` with the market's time trend (unchanged in a market without one). */
export function priceAt(price: number, fromDate: string | null, toDate: string, model: ValuationModel): number {
  const i = model.features.indexOf("months");
  if (i < 0 || !fromDate || !model.first_date) return price;
  return price * Math.exp(model.coefficients[i + 1] * (months(toDate, model.first_date) - months(fromDate, model.first_date)));
}

/** How far beyond its first and newest sale a market's value may be dated (its trend is not extrapolated further). */
const DATE_MARGIN_DAYS = 31;

/**
 * The date a value is for: the one asked (within the market's sales and a month either side), else the market's
 * newest sale; for a market without dates (New York's listings), the date its records are as of (`undatedAsOf`),
 * and no other. An error names why a date cannot be used.
 */
export function valuationDate(
  model: Pick<ValuationModel, "first_date" | "newest_date">,
  requested: string | undefined,
  undatedAsOf: string | null,
): { date: string } | { error: string } {
  if (!model.first_date || !model.newest_date) {
    if (requested !== undefined)
      return { error: `cannot be chosen here: these records carry no dates (their prices are as of ${undatedAsOf ?? "an unknown date"})` };
    return undatedAsOf ? { date: undatedAsOf } : { error: "cannot be stated: these records carry no dates" };
  }
  if (requested === undefined) return { date: model.newest_date };
  const shift = (date: string, days: number) => new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
  const [earliest, latest] = [shift(model.first_date, -DATE_MARGIN_DAYS), shift(model.newest_date, DATE_MARGIN_DAYS)];
  if (requested < earliest || requested > latest) {
    return {
      error: `must be between ${earliest} and ${latest}: the market's sales run from ${model.first_date} to ${model.newest_date}, and values are not dated further than a month beyond them`,
    };
  }
  return { date: requested };
}

type Confidence = "high" | "medium" | "low";

/** High: comparables agree (lowest third of spreads) and one is within 2 km; low: they disagree or are over 5 km away. */
export function confidenceOf(valuation: Valuation, model: ValuationModel): Confidence {
  const nearest = Math.min(...valuation.comparables.map((c) => c.distance_km));
  if (valuation.spread > model.spread_terciles[1] || nearest > 5) return "low";
  if (valuation.spread <= model.spread_terciles[0] && nearest <= 2) return "high";
  return "medium";
}
