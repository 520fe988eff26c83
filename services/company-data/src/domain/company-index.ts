/**
 * The catalogue's companies in memory, searched exactly as the SQL of src/store/companies.ts searches them: the
 * same matches, order, totals and match scores, without a query per search.
 *
 * A name search scores only the companies sharing at least one trigram with the query's name key (found through a
 * trigram -> companies map, counting the shared trigrams on the way): any other company has similarity 0 and word
 * similarity 0 with it, below both thresholds, so it cannot match. Word similarity, the costly measure, is computed
 * only where it can reach its threshold (it is at most shared / query trigrams) or where the company matched and
 * needs it for its rank. Other searches walk the listing order (Fortune rank, name key, id), computed once.
 *
 * The semantics are SQL's: a filter on a field the company lacks (NULL) does not match it, and text sorts by code
 * point, the byte order of the catalogue's database (C and C.UTF-8 collations).
 */
import { nameKey, tickerKey } from "./names.js";
import {
  byteOrder,
  SIMILARITY_THRESHOLD,
  WORD_SIMILARITY_THRESHOLD,
  similarityOfCounts,
  trigramRatio,
  trigramSet,
  trigramText,
  wordSimilarityOf,
  type Trigram,
  type TrigramText,
} from "@apiplat/catalogue";

/** The fields a search reads (the `companies` columns). */
export interface SearchableCompany {
  id: string;
  name_key: string;
  legal_key: string | null;
  ticker_keys: readonly string[];
  industry: string | null;
  sector: string | null;
  state: string | null;
  employees: number | null;
  fortune_rank: number | null;
}

/** A search's filters (the query parameters, as read). */
export interface CompanyFilters {
  name?: string;
  ticker?: string;
  industry?: string;
  sector?: string;
  state?: string;
  minEmployees?: number;
}

interface CompanyPage {
  offset: number;
  limit: number;
}

interface CompanyMatch<C> {
  company: C;
  /** round(score::numeric, 4)::float8 of the name's similarity; null without a name. */
  match_score: number | null;
}

/** `ORDER BY x NULLS LAST` for an ascending integer column. */
function compareNullsLast(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

/** PostgreSQL's lower() of a UTF-8 database: each character's own lower case (towlower), one for one. */
function lowerLikePostgres(text: string): string {
  let lowered = "";
  for (const character of text) lowered += String.fromCodePoint(character.toLowerCase().codePointAt(0)!);
  return lowered;
}

/**
 * numeric's round(x::numeric, 4)::float8 of a float4: float4 to numeric keeps 6 significant digits (printf's
 * "%.6g"), which numeric rounds half away from zero. (printf rounds an exact tie to even where toPrecision rounds
 * it up; both then agree on the fifth decimal, the only one round(x, 4) reads.)
 */
function roundedScore(value: number): number {
  const sixDigits = value.toPrecision(6);
  if (sixDigits.includes("e")) return 0; // below 1e-6
  const [whole, fraction = ""] = sixDigits.split(".");
  const digits = fraction.padEnd(5, "0");
  let tenThousandths = Number(whole) * 10_000 + Number(digits.slice(0, 4));
  if (digits[4] >= "5") tenThousandths += 1;
  return tenThousandths / 10_000;
}

/** A company matched by name, with what ranks it (its word score computed only when a tie needs it). */
interface Ranked<C> {
  entry: Entry<C>;
  exact: boolean;
  score: number;
  wordScore: number | undefined;
  sharedName: number;
  sharedLegal: number;
}

interface Entry<C> {
  company: C;
  name: TrigramText;
  legal: TrigramText | null;
}

/** A trigram -> the positions of the companies holding it, ascending. */
function postingsOf(texts: (TrigramText | null)[]): Map<Trigram, Int32Array> {
  const lists = new Map<Trigram, number[]>();
  texts.forEach((text, position) => {
    for (const trigram of text?.set ?? []) {
      const list = lists.get(trigram);
      if (list) list.push(position);
      else lists.set(trigram, [position]);
    }
  });
  return new Map([...lists].map(([trigram, list]) => [trigram, Int32Array.from(list)]));
}

/** Positions grouped by a value, each group in the order given. */
function groupBy(order: Int32Array, valuesOf: (position: number) => Iterable<string>): Map<string, Int32Array> {
  const groups = new Map<string, number[]>();
  for (const position of order) {
    for (const value of new Set(valuesOf(position))) {
      const group = groups.get(value);
      if (group) group.push(position);
      else groups.set(value, [position]);
    }
  }
  return new Map([...groups].map(([value, group]) => [value, Int32Array.from(group)]));
}

const present = (value: string | null): string[] => (value === null ? [] : [value]);

function listingOrder(a: SearchableCompany, b: SearchableCompany): number {
  return compareNullsLast(a.fortune_rank, b.fortune_rank) || byteOrder(a.name_key, b.name_key) || byteOrder(a.id, b.id);
}

const EMPTY = new Int32Array(0);

export class CompanyIndex<C extends SearchableCompany> {
  private readonly entries: Entry<C>[];
  /** Entry positions in the order of a search without a name; the groups below keep it. */
  private readonly listing: Int32Array;
  private readonly byTicker: Map<string, Int32Array>;
  private readonly byIndustry: Map<string, Int32Array>;
  private readonly bySector: Map<string, Int32Array>;
  private readonly byState: Map<string, Int32Array>;
  private readonly namePostings: Map<Trigram, Int32Array>;
  private readonly legalPostings: Map<Trigram, Int32Array>;
  /** Each company's number of distinct trigrams in its name key and in its legal key (0 without one). */
  private readonly nameLengths: Uint16Array;
  private readonly legalLengths: Uint16Array;
  /** Per query length: per key length, the fewest shared trigrams that may match (see sharedNeeded). */
  private readonly neededByQueryLength = new Map<number, Uint16Array>();
  // Per-search counters, left at zero after each search (a search runs start to end, one at a time).
  private readonly nameHits: Uint16Array;
  private readonly legalHits: Uint16Array;
  private readonly touched: Int32Array;

  constructor(companies: readonly C[]) {
    this.entries = companies.map((company) => ({
      company,
      name: trigramText(company.name_key),
      legal: company.legal_key === null ? null : trigramText(company.legal_key),
    }));
    this.listing = Int32Array.from(companies.keys()).sort((a, b) => listingOrder(companies[a], companies[b]));
    this.byTicker = groupBy(this.listing, (p) => companies[p].ticker_keys);
    this.byIndustry = groupBy(this.listing, (p) => present(companies[p].industry).map(lowerLikePostgres));
    this.bySector = groupBy(this.listing, (p) => present(companies[p].sector).map(lowerLikePostgres));
    this.byState = groupBy(this.listing, (p) => present(companies[p].state));
    this.namePostings = postingsOf(this.entries.map((entry) => entry.name));
    this.legalPostings = postingsOf(this.entries.map((entry) => entry.legal));
    this.nameLengths = Uint16Array.from(this.entries, (entry) => entry.name.set.length);
    this.legalLengths = Uint16Array.from(this.entries, (entry) => entry.legal?.set.length ?? 0);
    this.nameHits = new Uint16Array(companies.length);
    this.legalHits = new Uint16Array(companies.length);
    this.touched = new Int32Array(companies.length);
  }

  get size(): number {
    return this.entries.length;
  }

  search(filters: CompanyFilters, page: CompanyPage): { total: number; matches: CompanyMatch<C>[] } {
    const accepts = this.filterOf(filters);
    if (filters.name === undefined) {
      const matching: number[] = [];
      for (const position of this.narrowestGroup(filters)) if (accepts(this.entries[position].company)) matching.push(position);
      const shown = matching.slice(page.offset, page.offset + page.limit);
      return { total: matching.length, matches: shown.map((position) => ({ company: this.entries[position].company, match_score: null })) };
    }
    const key = nameKey(filters.name);
    const query = trigramSet(key);
    const ranked = this.matchName(key, query, accepts);
    ranked.sort((a, b) => compareRanked(a, b, query));
    return {
      total: ranked.length,
      matches: ranked.slice(page.offset, page.offset + page.limit).map(({ entry, score }) => ({ company: entry.company, match_score: roundedScore(score) })),
    };
  }

  /** The smallest group every match of the filters belongs to (ticker, industry, sector, state), else everyone. */
  private narrowestGroup(filters: CompanyFilters): Int32Array {
    const groups = [
      filters.ticker === undefined ? undefined : (this.byTicker.get(tickerKey(filters.ticker)) ?? EMPTY),
      filters.industry === undefined ? undefined : (this.byIndustry.get(lowerLikePostgres(filters.industry)) ?? EMPTY),
      filters.sector === undefined ? undefined : (this.bySector.get(lowerLikePostgres(filters.sector)) ?? EMPTY),
      filters.state === undefined ? undefined : (this.byState.get(filters.state.toUpperCase()) ?? EMPTY),
    ].filter((group) => group !== undefined);
    return groups.reduce((narrowest, group) => (group.length < narrowest.length ? group : narrowest), this.listing);
  }

  /** The WHERE clause's filters other than the name. */
  private filterOf(filters: CompanyFilters): (company: C) => boolean {
    const ticker = filters.ticker === undefined ? undefined : tickerKey(filters.ticker);
    const industry = filters.industry === undefined ? undefined : lowerLikePostgres(filters.industry);
    const sector = filters.sector === undefined ? undefined : lowerLikePostgres(filters.sector);
    const state = filters.state?.toUpperCase();
    const { minEmployees } = filters;
    return (company) =>
      (ticker === undefined || company.ticker_keys.includes(ticker)) &&
      (industry === undefined || (company.industry !== null && lowerLikePostgres(company.industry) === industry)) &&
      (sector === undefined || (company.sector !== null && lowerLikePostgres(company.sector) === sector)) &&
      (state === undefined || company.state === state) &&
      (minEmployees === undefined || (company.employees !== null && company.employees >= minEmployees));
  }

  /**
   * The companies whose name or legal key is similar to the key (`%`) or holds a stretch similar to it (`<%`).
   * Walking the query's trigrams' postings counts the trigrams each company shares with it, which bounds both
   * measures: only the few companies within reach of a threshold are scored (a common query touches thousands).
   */
  private matchName(key: string, query: Int32Array, accepts: (company: C) => boolean): Ranked<C>[] {
    let touchedCount = this.countShared(query, this.namePostings, this.nameHits, this.legalHits, 0);
    touchedCount = this.countShared(query, this.legalPostings, this.legalHits, this.nameHits, touchedCount);
    const needed = this.sharedNeeded(query.length);
    const matched: Ranked<C>[] = [];
    for (let i = 0; i < touchedCount; i++) {
      const position = this.touched[i];
      const sharedName = this.nameHits[position];
      const sharedLegal = this.legalHits[position];
      this.nameHits[position] = 0;
      this.legalHits[position] = 0;
      if (sharedName < needed[this.nameLengths[position]] && sharedLegal < needed[this.legalLengths[position]]) continue;
      const entry = this.entries[position];
      if (!accepts(entry.company)) continue;
      const ranked = rankedMatch(entry, key, query, sharedName, sharedLegal);
      if (ranked) matched.push(ranked);
    }
    return matched;
  }

  /**
   * Adds to `hits`, per company, the query's trigrams its key holds. A company is added to `touched` (after the
   * first `count`) once, when first counted in either key (`hits` and `otherHits` both zero); returns the new count.
   */
  private countShared(query: Int32Array, postings: Map<Trigram, Int32Array>, hits: Uint16Array, otherHits: Uint16Array, count: number): number {
    for (const trigram of query) {
      const list = postings.get(trigram);
      if (list === undefined) continue;
      for (const position of list) {
        if (hits[position] === 0 && otherHits[position] === 0) this.touched[count++] = position;
        hits[position] += 1;
      }
    }
    return count;
  }

  /**
   * For a query of this many trigrams, per key length (trigrams), the fewest shared trigrams with which the key's
   * similarity reaches its threshold or shared / query trigrams (the most its word similarity can be) reaches the
   * word threshold; unreachable (0xffff) for a key without trigrams.
   */
  private sharedNeeded(queryLength: number): Uint16Array {
    let needed = this.neededByQueryLength.get(queryLength);
    if (needed) return needed;
    const longest = this.nameLengths.reduce(
      (a, b) => Math.max(a, b),
      this.legalLengths.reduce((a, b) => Math.max(a, b), 0),
    );
    needed = new Uint16Array(longest + 1).fill(0xffff);
    for (let keyLength = 1; keyLength <= longest; keyLength++) {
      for (let shared = 1; shared <= Math.min(queryLength, keyLength); shared++) {
        const reaches =
          similarityOfCounts(shared, queryLength, keyLength) >= SIMILARITY_THRESHOLD || trigramRatio(shared, queryLength, shared) >= WORD_SIMILARITY_THRESHOLD;
        if (reaches) {
          needed[keyLength] = shared;
          break;
        }
      }
    }
    this.neededByQueryLength.set(queryLength, needed);
    return needed;
  }
}

/**
 * A company's rank against a name key, or null when it does not match: `name_key % key OR key <% name_key OR
 * legal_key % key OR key <% legal_key`.
 */
function rankedMatch<C extends SearchableCompany>(entry: Entry<C>, key: string, query: Int32Array, sharedName: number, sharedLegal: number): Ranked<C> | null {
  const nameSimilarity = similarityOfCounts(sharedName, query.length, entry.name.set.length);
  const legalSimilarity = entry.legal ? similarityOfCounts(sharedLegal, query.length, entry.legal.set.length) : 0;
  const score = Math.max(nameSimilarity, legalSimilarity);
  const matches =
    score >= SIMILARITY_THRESHOLD ||
    wordSimilarityReaches(query, entry.name, sharedName) ||
    (entry.legal !== null && wordSimilarityReaches(query, entry.legal, sharedLegal));
  if (!matches) return null;
  const exact = entry.company.name_key === key || entry.company.legal_key === key;
  return { entry, exact, score, wordScore: undefined, sharedName, sharedLegal };
}

/** key <% text, computed only when shared / query trigrams (its upper bound) reaches the threshold. */
function wordSimilarityReaches(query: Int32Array, text: TrigramText, shared: number): boolean {
  return trigramRatio(shared, query.length, shared) >= WORD_SIMILARITY_THRESHOLD && wordSimilarityOf(query, text) >= WORD_SIMILARITY_THRESHOLD;
}

/** greatest(word_similarity(key, name_key), coalesce(word_similarity(key, legal_key), 0)), computed once. */
function wordScoreOf<C>(ranked: Ranked<C>, query: Int32Array): number {
  if (ranked.wordScore === undefined) {
    const { name, legal } = ranked.entry;
    const nameWord = ranked.sharedName === 0 ? 0 : wordSimilarityOf(query, name);
    const legalWord = legal === null || ranked.sharedLegal === 0 ? 0 : wordSimilarityOf(query, legal);
    ranked.wordScore = Math.max(nameWord, legalWord);
  }
  return ranked.wordScore;
}

/** ORDER BY exact DESC, score DESC, word score DESC, fortune_rank NULLS LAST, id. */
function compareRanked<C extends SearchableCompany>(a: Ranked<C>, b: Ranked<C>, query: Int32Array): number {
  return (
    Number(b.exact) - Number(a.exact) ||
    b.score - a.score ||
    wordScoreOf(b, query) - wordScoreOf(a, query) ||
    compareNullsLast(a.entry.company.fortune_rank, b.entry.company.fortune_rank) ||
    byteOrder(a.entry.company.id, b.entry.company.id)
  );
}
