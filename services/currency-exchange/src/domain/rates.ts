import { Dec, roundRate } from "./decimal.js";
import { isInCirculation, PIVOT_CURRENCY } from "./currencies.js";
import { SOURCES } from "./adapters/index.js";
import type { PublishedRate, RateTable, SourceId } from "./types.js";

/** A currency's value against the pivot: `perEur` units of it buy 1 euro, as `source` published on `date`. */
export interface Quote {
  currency: string;
  perEur: Dec;
  source: SourceId;
  date: string;
  /** The bank quoting its own currency (the Bank of Russia's RUB): preferred over other banks on the same date. */
  home: boolean;
}

interface SelectionRule {
  /** /historical and /timeseries: a source's table older than this many days before the asked date is not used. */
  historicalLookbackDays: number;
  /** A source with no EUR quote of its own is rebased through another table of its home currency at most this old. */
  pivotLookbackDays: number;
  /** With three or more candidates, a rate further than this fraction from their median is an outlier. */
  outlierTolerance: number;
  /** Only candidates published at most this many days before the newest one are compared (rates move). */
  comparisonWindowDays: number;
}

export const DEFAULT_RULE: SelectionRule = { historicalLookbackDays: 14, pivotLookbackDays: 7, outlierTolerance: 0.05, comparisonWindowDays: 7 };

const PRIORITY = new Map(SOURCES.map((s, i) => [s.id, i]));

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Units of the currency worth as much as `homeUnits` of the table's home currency (one division at most). */
function inForeign(table: RateTable, rate: PublishedRate, homeUnits: Dec): Dec {
  return table.quoteStyle === "foreign_per_home" ? homeUnits.times(rate.value).div(rate.units) : homeUnits.times(rate.units).div(rate.value);
}

/** Home-currency units per 1 unit of the rate's currency, kept exact where the bank quotes that way. */
function homePerUnit(table: RateTable, rate: PublishedRate): Dec {
  return table.quoteStyle === "home_per_foreign" ? new Dec(rate.value).div(rate.units) : new Dec(rate.units).div(rate.value);
}

/**
 * All the published tables the service knows, by source and date, and the rule that turns them into one rate
 * per currency: rebase every table to EUR; the ECB's rate wins whenever its table quotes the currency; otherwise,
 * among the sources' rates published within 7 days of the newest one, drop outliers (> 5% from the median of
 * three or more) and keep the most recently published rate; on the same date a bank's quote of its own currency wins, then the source listed
 * first in SOURCES.
 */
export class RateBook {
  private readonly bySource = new Map<SourceId, RateTable[]>();
  private readonly candidateCache = new WeakMap<RateTable, Quote[]>();

  constructor(
    tables: RateTable[],
    private readonly rule: SelectionRule = DEFAULT_RULE,
  ) {
    for (const table of tables) {
      const list = this.bySource.get(table.source) ?? [];
      list.push(table);
      this.bySource.set(table.source, list);
    }
    for (const list of this.bySource.values()) list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  }

  get isEmpty(): boolean {
    return this.bySource.size === 0;
  }

  /** The source's latest table published on or before `date` (and not before `notBefore`). */
  tableAsOf(source: SourceId, date: string, notBefore?: string): RateTable | undefined {
    const list = this.bySource.get(source);
    if (!list) return undefined;
    let lo = 0;
    let hi = list.length - 1;
    let found: RateTable | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].date <= date) {
        found = list[mid];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found && (notBefore === undefined || found.date >= notBefore) ? found : undefined;
  }

  /** Every date on which at least one source published, within [start, end]. */
  publicationDates(start: string, end: string): string[] {
    const dates = new Set<string>();
    for (const list of this.bySource.values()) for (const t of list) if (t.date >= start && t.date <= end) dates.add(t.date);
    return [...dates].sort();
  }

  latestDate(): string | undefined {
    let latest: string | undefined;
    for (const list of this.bySource.values()) {
      const last = list[list.length - 1]?.date;
      if (last && (!latest || last > latest)) latest = last;
    }
    return latest;
  }

  /**
   * One quote per currency in circulation on `asOf`. `historical` limits each source to tables published at most
   * `historicalLookbackDays` before `asOf`; /latest has no such limit and reports the age instead. `only`
   * restricts the work to those currencies.
   */
  quotesAsOf(asOf: string, historical: boolean, only?: ReadonlySet<string>): Map<string, Quote> {
    const candidates = new Map<string, Quote[]>();
    for (const quote of this.candidatesAsOf(asOf, historical)) {
      if (only && !only.has(quote.currency)) continue;
      const list = candidates.get(quote.currency) ?? [];
      list.push(quote);
      candidates.set(quote.currency, list);
    }
    const chosen = new Map<string, Quote>();
    for (const [currency, list] of candidates) chosen.set(currency, list.find((q) => q.source === "ecb") ?? this.pick(list));
    return chosen;
  }

  /** Every source's rebased quote of every currency in circulation on `asOf`, before the rule picks one. */
  candidatesAsOf(asOf: string, historical: boolean): Quote[] {
    const notBefore = historical ? addDays(asOf, -this.rule.historicalLookbackDays) : undefined;
    const quotes: Quote[] = [];
    for (const source of this.bySource.keys()) {
      const table = this.tableAsOf(source, asOf, notBefore);
      if (table) for (const quote of this.candidates(table)) if (isInCirculation(quote.currency, asOf)) quotes.push(quote);
    }
    return quotes;
  }

  /** Which currencies each source's latest table (as of `asOf`) publishes, its home currency included. */
  coverageAsOf(asOf: string): Map<SourceId, Set<string>> {
    const coverage = new Map<SourceId, Set<string>>();
    for (const source of this.bySource.keys()) {
      const table = this.tableAsOf(source, asOf);
      if (!table) continue;
      const codes = [table.home, ...table.rates.map((r) => r.currency)].filter((c) => isInCirculation(c, asOf));
      coverage.set(source, new Set(codes));
    }
    return coverage;
  }

  private pick(list: Quote[]): Quote {
    const newest = list.reduce((max, q) => (q.date > max ? q.date : max), "");
    const recent = list.filter((q) => q.date >= addDays(newest, -this.rule.comparisonWindowDays));
    const kept = recent.length >= 3 ? this.withoutOutliers(recent) : recent;
    return kept.reduce((best, q) => {
      if (q.date !== best.date) return q.date > best.date ? q : best;
      if (q.home !== best.home) return q.home ? q : best;
      return (PRIORITY.get(q.source) ?? 99) < (PRIORITY.get(best.source) ?? 99) ? q : best;
    });
  }

  private withoutOutliers(list: Quote[]): Quote[] {
    const sorted = [...list].sort((a, b) => a.perEur.comparedTo(b.perEur));
    const mid = sorted.length >> 1;
    const median = sorted.length % 2 ? sorted[mid].perEur : sorted[mid - 1].perEur.plus(sorted[mid].perEur).div(2);
    const kept = list.filter((q) => q.perEur.div(median).minus(1).abs().lte(this.rule.outlierTolerance));
    return kept.length > 0 ? kept : list;
  }

  /** The table's rates rebased to EUR, plus its home currency when the table quotes the euro itself. */
  private candidates(table: RateTable): Quote[] {
    const cached = this.candidateCache.get(table);
    if (cached) return cached;
    const quotes: Quote[] = [];
    const homePerEur = this.homePerEur(table);
    if (homePerEur) {
      for (const rate of table.rates) {
        if (rate.currency === PIVOT_CURRENCY || rate.currency === table.home) continue;
        quotes.push({ currency: rate.currency, perEur: inForeign(table, rate, homePerEur.value), source: table.source, date: table.date, home: false });
      }
      if (table.home !== PIVOT_CURRENCY && homePerEur.own) {
        quotes.push({ currency: table.home, perEur: homePerEur.value, source: table.source, date: table.date, home: true });
      }
    }
    this.candidateCache.set(table, quotes);
    return quotes;
  }

  /** Home-currency units per euro: from the table's own EUR rate, else another table of the same home, else the ECB. */
  private homePerEur(table: RateTable): { value: Dec; own: boolean } | null {
    if (table.home === PIVOT_CURRENCY) return { value: new Dec(1), own: true };
    const own = table.rates.find((r) => r.currency === PIVOT_CURRENCY);
    if (own) return { value: homePerUnit(table, own), own: true };
    const notBefore = addDays(table.date, -this.rule.pivotLookbackDays);
    for (const [source, list] of this.bySource) {
      if (source === table.source || list[0]?.home !== table.home) continue;
      const sibling = this.tableAsOf(source, table.date, notBefore);
      const eur = sibling?.rates.find((r) => r.currency === PIVOT_CURRENCY);
      if (sibling && eur) return { value: homePerUnit(sibling, eur), own: false };
    }
    const ecb = this.tableAsOf("ecb", table.date, notBefore);
    const home = ecb?.rates.find((r) => r.currency === table.home);
    return ecb && home ? { value: new Dec(home.value).div(home.units), own: false } : null;
  }
}

/** Units of `target` for 1 unit of `base`, both quoted against the euro, to 12 significant digits. */
export function crossRate(base: Quote | "EUR", target: Quote | "EUR"): string {
  const basePerEur = base === "EUR" ? new Dec(1) : base.perEur;
  const targetPerEur = target === "EUR" ? new Dec(1) : target.perEur;
  return roundRate(targetPerEur.div(basePerEur));
}
