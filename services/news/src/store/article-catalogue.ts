/**
 * The articles held in memory (see @apiplat/catalogue's memoryCatalogue), the one engine of every search and listing:
 * every article's fields and its weighted tsvector, read again after each ingestion run. 28,000 articles take about
 * 60 MB. The database is the store of record the snapshot is read from.
 *
 * Filters, sorts and facets keep the semantics the catalogue has always had: lists compared lower-cased, the date
 * range from inclusive and to exclusive, ties by newer, then id in byte order; a listing without text has no rank.
 */
import {
  byteOrder,
  firstInOrder,
  memoryCatalogue,
  rankedSearch,
  splitList,
  type DateRange,
  type FacetCount,
  type MemoryCatalogue,
  type Page,
  type TextQuery,
} from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { ARTICLE_COLUMNS, type ArticleRecord } from "./articles.js";

export type ArticleCatalogue = MemoryCatalogue<ArticleRecord>;

export interface ArticleFilters {
  text?: { query: TextQuery; config: string };
  categories?: string;
  countries?: string;
  language?: string;
  sources?: string;
  domains?: string;
  range?: DateRange;
}

type ArticleSort = "relevancy" | "published_at" | "popularity";

type ArticleFacets = Record<"category" | "country" | "source", FacetCount[]>;

export function articleCatalogue(db: Queryable): ArticleCatalogue {
  return memoryCatalogue(db, async (db) => {
    const { rows } = await db.query<ArticleRecord & { vector: string | null }>(`SELECT ${ARTICLE_COLUMNS}, document::text AS vector FROM articles`);
    const articles = rows.map(({ vector: _vector, ...row }) => row);
    columnsOf(articles);
    return { rows: articles, vectors: { document: rows.map((row) => row.vector) } };
  });
}

/** The articles the filters keep, with `q` matched and ranked, sorted, paged and (when asked) faceted. */
export async function findArticles(
  catalogue: ArticleCatalogue,
  filters: ArticleFilters,
  sort: ArticleSort,
  page: Page,
  withFacets: boolean,
): Promise<{ total: number; articles: ArticleRecord[]; facets?: ArticleFacets }> {
  const { text, ...rest } = filters;
  if (!text) return listArticles((await catalogue.current()).rows, rest, sort, page, withFacets);
  const { rows, matches } = await rankedSearch(catalogue, "document", text.query, text.config);
  const columns = columnsOf(rows);
  const keep = matchesFilters(columns, rest);
  const counter = withFacets ? new FacetCounter(columns) : null;
  const kept: Ranked[] = [];
  for (let i = 0; i < matches.docs.length; i++) {
    const at = matches.docs[i];
    if (keep && !keep(at)) continue;
    kept.push({ at, rank: matches.ranks[i] });
    counter?.add(at);
  }
  const { places } = columns.orders[sort === "popularity" ? "popularity" : "published_at"];
  const byPlace = (a: Ranked, b: Ranked) => places[a.at] - places[b.at];
  const order = sort === "relevancy" ? (a: Ranked, b: Ranked) => b.rank - a.rank || byPlace(a, b) : byPlace;
  const articles = firstInOrder(kept, order, page.offset + page.limit)
    .slice(page.offset)
    .map((r) => rows[r.at]);
  return { total: kept.length, articles, ...(counter ? { facets: counter.facets() } : {}) };
}

/** The newest publication time among the articles the filters keep (text aside): top headlines' window ends there. */
export async function newestPublishedOf(catalogue: ArticleCatalogue, filters: Omit<ArticleFilters, "text">): Promise<Date | null> {
  const { rows } = await catalogue.current();
  const columns = columnsOf(rows);
  const keep = matchesFilters(columns, filters);
  for (const at of columns.orders.published_at.ordinals) if (!keep || keep(at)) return rows[at].published_at;
  return null;
}

/** A listing (no `q`, no rank): the rows walked in the sort's order, every kept one counted, the page's kept. */
function listArticles(
  rows: readonly ArticleRecord[],
  filters: Omit<ArticleFilters, "text">,
  sort: ArticleSort,
  page: Page,
  withFacets: boolean,
): { total: number; articles: ArticleRecord[]; facets?: ArticleFacets } {
  const columns = columnsOf(rows);
  const keep = matchesFilters(columns, filters);
  const { ordinals } = columns.orders[sort === "popularity" ? "popularity" : "published_at"];
  const end = page.offset + page.limit;
  if (!keep) {
    const articles = Array.from(ordinals.subarray(page.offset, end), (at) => rows[at]);
    return { total: rows.length, articles, ...(withFacets ? { facets: everyRowFacets(columns) } : {}) };
  }
  const counter = withFacets ? new FacetCounter(columns) : null;
  const articles: ArticleRecord[] = [];
  let total = 0;
  for (const at of ordinals) {
    if (!keep(at)) continue;
    if (total >= page.offset && total < end) articles.push(rows[at]);
    counter?.add(at);
    total++;
  }
  return { total, articles, ...(counter ? { facets: counter.facets() } : {}) };
}

interface Ranked {
  /** The article's ordinal in the snapshot's rows. */
  at: number;
  rank: number;
}

/** A text column's distinct values, and each row's value as its index among them (-1 for NULL). */
interface Dictionary {
  values: string[];
  index: Map<string, number>;
  of: Int32Array;
  hasNull: boolean;
}

/** The rows in one sort's order (`ordinals`), and each row's place in it (`places[ordinal]`). */
interface RowOrder {
  ordinals: Int32Array;
  places: Int32Array;
}

/**
 * What the filters, facets and sorts read, by row ordinal, in typed arrays, built once per snapshot: a filter reading
 * the row objects themselves, scattered over the heap, is many times slower.
 */
interface Columns {
  category: Dictionary;
  country: Dictionary;
  source: Dictionary;
  domain: Dictionary;
  language: Dictionary;
  publishedAt: Float64Array;
  orders: Record<"published_at" | "popularity", RowOrder>;
  /** The facets of the whole snapshot, counted at the first listing that asks for them unfiltered. */
  everyRow?: ArticleFacets;
}

const columnsByRows = new WeakMap<readonly ArticleRecord[], Columns>();

function columnsOf(rows: readonly ArticleRecord[]): Columns {
  let columns = columnsByRows.get(rows);
  if (!columns) {
    columns = {
      category: dictionaryOf(rows, (row) => row.category),
      country: dictionaryOf(rows, (row) => row.country),
      source: dictionaryOf(rows, (row) => row.source_id),
      domain: dictionaryOf(rows, (row) => row.domain),
      language: dictionaryOf(rows, (row) => row.language),
      publishedAt: Float64Array.from(rows, (row) => row.published_at.getTime()),
      orders: { published_at: orderOf(rows, newerFirst), popularity: orderOf(rows, morePopularFirst) },
    };
    columnsByRows.set(rows, columns);
  }
  return columns;
}

function dictionaryOf(rows: readonly ArticleRecord[], value: (row: ArticleRecord) => string | null): Dictionary {
  const values: string[] = [];
  const index = new Map<string, number>();
  let hasNull = false;
  const of = Int32Array.from(rows, (row) => {
    const text = value(row);
    if (text === null) {
      hasNull = true;
      return -1;
    }
    let at = index.get(text);
    if (at === undefined) index.set(text, (at = values.push(text) - 1));
    return at;
  });
  return { values, index, of, hasNull };
}

/** `published_at DESC, id` (ids in byte order, as the database's C collation orders them). */
function newerFirst(a: ArticleRecord, b: ArticleRecord): number {
  return b.published_at.getTime() - a.published_at.getTime() || byteOrder(a.id, b.id);
}

/** `popularity DESC NULLS LAST, published_at DESC, id` */
function morePopularFirst(a: ArticleRecord, b: ArticleRecord): number {
  if (a.popularity !== b.popularity) {
    if (a.popularity === null) return 1;
    if (b.popularity === null) return -1;
    return b.popularity - a.popularity;
  }
  return newerFirst(a, b);
}

function orderOf(rows: readonly ArticleRecord[], compare: (a: ArticleRecord, b: ArticleRecord) => number): RowOrder {
  const ordinals = Int32Array.from(rows.keys()).sort((a, b) => compare(rows[a], rows[b]));
  const places = new Int32Array(rows.length);
  ordinals.forEach((ordinal, place) => (places[ordinal] = place));
  return { ordinals, places };
}

/** A list filter's values, lower-cased; null when the filter is absent or names nothing. */
function listOf(value: string | undefined): string[] | null {
  const values = value === undefined ? [] : splitList(value.toLowerCase());
  return values.length === 0 ? null : values;
}

/** Which of a dictionary's values a list filter accepts (1), by value index; null when the filter is absent. */
function accepted(dictionary: Dictionary, values: readonly string[] | null): Uint8Array | null {
  if (!values) return null;
  const accepts = new Uint8Array(dictionary.values.length);
  for (const value of values) {
    const at = dictionary.index.get(value);
    if (at !== undefined) accepts[at] = 1;
  }
  return accepts;
}

/** Whether a list filter accepts every row's value (`language=en` of an English catalogue): then it tests nothing. */
function keepsEveryRow(dictionary: Dictionary, accepts: Uint8Array): boolean {
  return !dictionary.hasNull && accepts.every((accepted) => accepted === 1);
}

/**
 * The filters as a test of a row's ordinal: lists compared lower-cased (a NULL matching none), a domain without its
 * `www.`, the date range from inclusive and to exclusive. Null when there is no filter: every row is kept.
 */
function matchesFilters(columns: Columns, filters: Omit<ArticleFilters, "text">): ((at: number) => boolean) | null {
  const language = filters.language ? [filters.language.toLowerCase()] : null;
  const tests = (
    [
      [columns.category, accepted(columns.category, listOf(filters.categories))],
      [columns.country, accepted(columns.country, listOf(filters.countries))],
      [columns.source, accepted(columns.source, listOf(filters.sources))],
      [columns.domain, accepted(columns.domain, listOf(filters.domains)?.map((d) => d.replace(/^www\./, "")) ?? null)],
      [columns.language, accepted(columns.language, language)],
    ] as const
  ).filter((test): test is readonly [Dictionary, Uint8Array] => test[1] !== null && !keepsEveryRow(test[0], test[1]));
  const from = filters.range?.from?.getTime() ?? -Infinity;
  const to = filters.range?.to?.getTime() ?? Infinity;
  if (tests.length === 0 && from === -Infinity && to === Infinity) return null;
  const { publishedAt } = columns;
  // Plain arrays walked by index: this runs for every row of a listing, and an iterator per call costs more than the test.
  const values = tests.map(([dictionary]) => dictionary.of);
  const accepts = tests.map(([, accepted]) => accepted);
  return (at) => {
    if (!(publishedAt[at] >= from && publishedAt[at] < to)) return false;
    for (let i = 0; i < values.length; i++) {
      const value = values[i][at];
      if (value === -1 || accepts[i][value] === 0) return false;
    }
    return true;
  };
}

const FACET_LIMIT = 10;

/** An unfiltered listing's facets: the same for every such listing of a snapshot, so counted once. */
function everyRowFacets(columns: Columns): ArticleFacets {
  if (!columns.everyRow) {
    const counter = new FacetCounter(columns);
    for (let at = 0; at < columns.publishedAt.length; at++) counter.add(at);
    columns.everyRow = counter.facets();
  }
  return columns.everyRow;
}

/** The facets' counts of the kept rows: each facet's values most frequent first, then in byte order, at most 10. */
class FacetCounter {
  private readonly counts: Record<keyof ArticleFacets, Int32Array>;
  private readonly category: Int32Array;
  private readonly country: Int32Array;
  private readonly source: Int32Array;

  constructor(private readonly columns: Columns) {
    this.counts = {
      category: new Int32Array(columns.category.values.length),
      country: new Int32Array(columns.country.values.length),
      source: new Int32Array(columns.source.values.length),
    };
    [this.category, this.country, this.source] = [columns.category.of, columns.country.of, columns.source.of];
  }

  /** Called for every kept row of a listing: the three facets unrolled, each a typed-array read and increment. */
  add(at: number): void {
    const category = this.category[at];
    if (category !== -1) this.counts.category[category]++;
    const country = this.country[at];
    if (country !== -1) this.counts.country[country]++;
    const source = this.source[at];
    if (source !== -1) this.counts.source[source]++;
  }

  facets(): ArticleFacets {
    const list = (facet: keyof ArticleFacets): FacetCount[] =>
      this.columns[facet].values
        .map((value, i) => ({ value, count: this.counts[facet][i] }))
        .filter((entry) => entry.count > 0)
        .sort((a, b) => b.count - a.count || byteOrder(a.value, b.value))
        .slice(0, FACET_LIMIT);
    return { category: list("category"), country: list("country"), source: list("source") };
  }
}
