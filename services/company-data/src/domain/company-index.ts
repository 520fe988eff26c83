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
  SIMILARITY_THRESHOLD,
  WORD_SIMILARITY_THRESHOLD,
  similarityOfCounts,
  trigramRatio,
  trigramSet,
  trigramText,
  wordSimilarityOf,
  type Trigram,
  type TrigramText,
} from "./trigrams.js";

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

export interface CompanyFilters {
  name?: string;
  ticker?: string;
  industry?: string;
  sector?: string;
  state?: string;
  minEmployees?: number;
}

export interface CompanyPage {
  offset: number;
  limit: number;
}

export interface CompanyMatch<C> {
  company: C;
  /** round(score::numeric, 4)::float8 of the name's similarity; null without a name. */
  match_score: number | null;
}

/** Text in code point order (UTF-16 order except that characters beyond U+FFFF sort after U+E000..U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** `ORDER BY x NULLS LAST` for an ascending integer column. */
function compareNullsLast(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

/** PostgreSQL's lower() of a UTF-8 database: each character's own lower case (towlower), one for one. */
export function lowerLikePostgres(text: string): string {
  let lowered = "";
  for (const character of text) lowered += String.fromCodePoint(character.toLowerCase().codePointAt(0)!);
  return lowered;
}

/**
 * numeric's round(x::numeric, 4)::float8 of a float4: float4 to numeric keeps 6 significant digits (printf's
 * "%.6g"), which numeric rounds half away from zero. (printf rounds an exact tie to even where toPrecision rounds
 * it up; both then agree on the fifth decimal, the only one round(x, 4) reads.)
 */
export function roundedScore(value: number): number {
  const sixDigits = value.toPrecision(6);
  if (sixDigits.includes("e")) return 0; // below 1e-6
  const [whole, fraction = ""] = sixDigits.split(".");
  const digits = fraction.padEnd(5, "0");
  let tenThousandths = Number(whole) * 10_000 + Number(digits.slice(0, 4));
  if (digits[4] >= "5") tenThousandths += 1;
  return tenThousandths / 10_000;
}

interface NameScores {
  exact: boolean;
  score: number;
  wordScore: number;
}

interface Entry<C> {
  company: C;
  name: TrigramText;
  legal: TrigramText | null;
  industry: string | null;
  sector: string | null;
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

function listingOrder(a: SearchableCompany, b: SearchableCompany): number {
  return compareNullsLast(a.fortune_rank, b.fortune_rank) || compareCodePoints(a.name_key, b.name_key) || compareCodePoints(a.id, b.id);
}

export class CompanyIndex<C extends SearchableCompany> {
  private readonly entries: Entry<C>[];
  /** Entry positions in the order of a search without a name. */
  private readonly listing: Int32Array;
  private readonly byTicker = new Map<string, number[]>();
  private readonly namePostings: Map<Trigram, Int32Array>;
  private readonly legalPostings: Map<Trigram, Int32Array>;
  // Per-search counters, reset after each search (searches are synchronous: one at a time).
  private readonly sharedWithName: Uint16Array;
  private readonly sharedWithLegal: Uint16Array;

  constructor(companies: readonly C[]) {
    this.entries = companies.map((company) => ({
      company,
      name: trigramText(company.name_key),
      legal: company.legal_key === null ? null : trigramText(company.legal_key),
      industry: company.industry === null ? null : lowerLikePostgres(company.industry),
      sector: company.sector === null ? null : lowerLikePostgres(company.sector),
    }));
    this.listing = Int32Array.from(companies.keys()).sort((a, b) => listingOrder(companies[a], companies[b]));
    for (const position of this.listing) {
      for (const ticker of new Set(companies[position].ticker_keys)) {
        const list = this.byTicker.get(ticker);
        if (list) list.push(position);
        else this.byTicker.set(ticker, [position]);
      }
    }
    this.namePostings = postingsOf(this.entries.map((entry) => entry.name));
    this.legalPostings = postingsOf(this.entries.map((entry) => entry.legal));
    this.sharedWithName = new Uint16Array(companies.length);
    this.sharedWithLegal = new Uint16Array(companies.length);
  }

  get size(): number {
    return this.entries.length;
  }

  search(filters: CompanyFilters, page: CompanyPage): { total: number; matches: CompanyMatch<C>[] } {
    const accepts = this.filterOf(filters);
    if (filters.name === undefined) {
      const candidates = filters.ticker === undefined ? this.listing : (this.byTicker.get(tickerKey(filters.ticker)) ?? []);
      const matching: number[] = [];
      for (const position of candidates) if (accepts(this.entries[position])) matching.push(position);
      const pageOf = matching.slice(page.offset, page.offset + page.limit);
      return { total: matching.length, matches: pageOf.map((position) => ({ company: this.entries[position].company, match_score: null })) };
    }
    const ranked = this.matchName(nameKey(filters.name), accepts);
    ranked.sort((a, b) => this.compareRanked(a, b));
    return {
      total: ranked.length,
      matches: ranked.slice(page.offset, page.offset + page.limit).map(({ entry, scores }) => ({ company: entry.company, match_score: roundedScore(scores.score) })),
    };
  }

  /** The WHERE clause's filters other than the name. */
  private filterOf(filters: CompanyFilters): (entry: Entry<C>) => boolean {
    const ticker = filters.ticker === undefined ? undefined : tickerKey(filters.ticker);
    const industry = filters.industry === undefined ? undefined : lowerLikePostgres(filters.industry);
    const sector = filters.sector === undefined ? undefined : lowerLikePostgres(filters.sector);
    const state = filters.state?.toUpperCase();
    const { minEmployees } = filters;
    return ({ company, industry: entryIndustry, sector: entrySector }) =>
      (ticker === undefined || company.ticker_keys.includes(ticker)) &&
      (industry === undefined || entryIndustry === industry) &&
      (sector === undefined || entrySector === sector) &&
      (state === undefined || company.state === state) &&
      (minEmployees === undefined || (company.employees !== null && company.employees >= minEmployees));
  }

  /**
   * The companies whose name or legal key is similar to the key (`%`) or holds a stretch similar to it (`<%`),
   * with what ranks them.
   */
  private matchName(key: string, accepts: (entry: Entry<C>) => boolean): { entry: Entry<C>; scores: NameScores }[] {
    const query = trigramSet(key);
    const touched = new Set<number>();
    this.countShared(query, this.namePostings, this.sharedWithName, touched);
    this.countShared(query, this.legalPostings, this.sharedWithLegal, touched);
    const matched: { entry: Entry<C>; scores: NameScores }[] = [];
    for (const position of touched) {
      const entry = this.entries[position];
      const sharedName = this.sharedWithName[position];
      const sharedLegal = this.sharedWithLegal[position];
      this.sharedWithName[position] = 0;
      this.sharedWithLegal[position] = 0;
      if (!accepts(entry)) continue;
      const scores = nameScores(entry, key, query, sharedName, sharedLegal);
      if (scores) matched.push({ entry, scores });
    }
    return matched;
  }

  private countShared(query: Int32Array, postings: Map<Trigram, Int32Array>, shared: Uint16Array, touched: Set<number>): void {
    for (const trigram of query) {
      for (const position of postings.get(trigram) ?? []) {
        shared[position] += 1;
        touched.add(position);
      }
    }
  }

  /** ORDER BY exact DESC, score DESC, word score DESC, fortune_rank NULLS LAST, id. */
  private compareRanked(a: { entry: Entry<C>; scores: NameScores }, b: { entry: Entry<C>; scores: NameScores }): number {
    return (
      Number(b.scores.exact) - Number(a.scores.exact) ||
      b.scores.score - a.scores.score ||
      b.scores.wordScore - a.scores.wordScore ||
      compareNullsLast(a.entry.company.fortune_rank, b.entry.company.fortune_rank) ||
      compareCodePoints(a.entry.company.id, b.entry.company.id)
    );
  }
}

/**
 * A company's scores against a name key, or null when it does not match: `name_key % key OR key <% name_key OR
 * legal_key % key OR key <% legal_key`. Word similarity is at most shared / query trigrams, so it is computed to
 * decide the match only when that bound reaches the threshold, and otherwise only for a match's rank.
 */
function nameScores<C extends SearchableCompany>(entry: Entry<C>, key: string, query: Int32Array, sharedName: number, sharedLegal: number): NameScores | null {
  const nameSimilarity = similarityOfCounts(sharedName, query.length, entry.name.set.length);
  const legalSimilarity = entry.legal ? similarityOfCounts(sharedLegal, query.length, entry.legal.set.length) : 0;
  const mayReachWordThreshold = (shared: number) => trigramRatio(shared, query.length, shared) >= WORD_SIMILARITY_THRESHOLD;
  let nameWord: number | undefined;
  let legalWord: number | undefined;
  let matches = nameSimilarity >= SIMILARITY_THRESHOLD || legalSimilarity >= SIMILARITY_THRESHOLD;
  if (!matches && mayReachWordThreshold(sharedName)) {
    nameWord = wordScore(query, entry.name, sharedName);
    matches = nameWord >= WORD_SIMILARITY_THRESHOLD;
  }
  if (!matches && entry.legal && mayReachWordThreshold(sharedLegal)) {
    legalWord = wordScore(query, entry.legal, sharedLegal);
    matches = legalWord >= WORD_SIMILARITY_THRESHOLD;
  }
  if (!matches) return null;
  nameWord ??= wordScore(query, entry.name, sharedName);
  legalWord ??= entry.legal ? wordScore(query, entry.legal, sharedLegal) : 0;
  return {
    exact: entry.company.name_key === key || entry.company.legal_key === key,
    score: Math.max(nameSimilarity, legalSimilarity),
    wordScore: Math.max(nameWord, legalWord),
  };
}

/** word_similarity(key, text); 0 without a shared trigram. */
function wordScore(query: Int32Array, text: TrigramText, shared: number): number {
  return shared === 0 ? 0 : wordSimilarityOf(query, text);
}
