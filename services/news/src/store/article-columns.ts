/**
 * The news snapshot's columns, by row ordinal, in typed arrays, built once per snapshot: what the filters, facets and
 * sorts read. A filter reading the row objects themselves, scattered over the heap, is many times slower.
 */
import { byteOrder, splitList, type FacetCount } from "@apiplat/catalogue";
import type { ArticleRecord } from "./articles.js";
import type { ArticleFilters } from "./article-catalogue.js";

export type ArticleFacets = Record<"category" | "country" | "source", FacetCount[]>;

export type SortOrder = "published_at" | "popularity";

/** A text column's distinct values, and each row's value as its index among them (-1 for NULL). */
interface Dictionary {
  values: string[];
  index: Map<string, number>;
  of: Int32Array;
  hasNull: boolean;
  /** Each value's rows in a sort's order, built at the first listing that narrows by this column in that order. */
  runs: Partial<Record<SortOrder, ValueRuns>>;
}

/** Value v's rows are `ordinals[starts[v]]` up to `ordinals[starts[v + 1]]`, in the sort's order. */
interface ValueRuns {
  starts: Int32Array;
  ordinals: Int32Array;
}

/** The rows in one sort's order (`ordinals`), and each row's place in it (`places[ordinal]`). */
export interface RowOrder {
  ordinals: Int32Array;
  places: Int32Array;
}

export interface Columns {
  category: Dictionary;
  country: Dictionary;
  source: Dictionary;
  domain: Dictionary;
  language: Dictionary;
  publishedAt: Float64Array;
  orders: Record<SortOrder, RowOrder>;
  /** The facets of the whole snapshot, counted at the first listing that asks for them unfiltered. */
  everyRow?: ArticleFacets;
}

const columnsByRows = new WeakMap<readonly ArticleRecord[], Columns>();

export function columnsOf(rows: readonly ArticleRecord[]): Columns {
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
  return { values, index, of, hasNull, runs: {} };
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

/** Which of `values` no row has in the column (exact values, as stored). */
export function absentValues(columns: Columns, column: "country" | "category" | "source", values: readonly string[]): string[] {
  return values.filter((value) => !columns[column].index.has(value));
}

/** Whether a list filter accepts every row's value (`language=en` of an English catalogue): then it tests nothing. */
function keepsEveryRow(dictionary: Dictionary, accepts: Uint8Array): boolean {
  return !dictionary.hasNull && accepts.every((accepted) => accepted === 1);
}

/** What a listing's filters ask, each list filter as the values it accepts; null when they keep every row. */
export interface FilterPlan {
  lists: (readonly [Dictionary, Uint8Array])[];
  from: number;
  to: number;
}

/**
 * Lists compared lower-cased (a NULL matching none), a domain without its `www.`, the date range from inclusive and to
 * exclusive; a list filter that every row passes is left out.
 */
export function filterPlan(columns: Columns, filters: Omit<ArticleFilters, "text">): FilterPlan | null {
  const language = filters.language ? [filters.language.toLowerCase()] : null;
  const lists = (
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
  if (lists.length === 0 && from === -Infinity && to === Infinity) return null;
  return { lists, from, to };
}

/** The plan as a test of a row's ordinal. */
export function keepsRow(columns: Columns, { lists, from, to }: FilterPlan): (at: number) => boolean {
  const { publishedAt } = columns;
  // Plain arrays walked by index: this runs for every row of a listing, and an iterator per call costs more than the test.
  const values = lists.map(([dictionary]) => dictionary.of);
  const accepts = lists.map(([, accepted]) => accepted);
  return (at) => {
    if (!(publishedAt[at] >= from && publishedAt[at] < to)) return false;
    for (let i = 0; i < values.length; i++) {
      const value = values[i][at];
      if (value === -1 || accepts[i][value] === 0) return false;
    }
    return true;
  };
}

/** The filters as a test of a row's ordinal; null when every row is kept. */
export function matchesFilters(columns: Columns, filters: Omit<ArticleFilters, "text">): ((at: number) => boolean) | null {
  const plan = filterPlan(columns, filters);
  return plan && keepsRow(columns, plan);
}

/**
 * The rows a listing need look at, in the sort's order: those of the values its narrowest list filter accepts (a
 * category is a few percent of the catalogue), or every row when no list filter narrows it.
 */
export function candidateRows(columns: Columns, plan: FilterPlan, sort: SortOrder): Int32Array {
  const order = columns.orders[sort];
  let narrowest: { runs: ValueRuns; values: number[]; count: number } | null = null;
  for (const [dictionary, accepts] of plan.lists) {
    const runs = runsOf(dictionary, order, sort);
    const values: number[] = [];
    let count = 0;
    accepts.forEach((accepted, value) => {
      if (accepted === 0) return;
      values.push(value);
      count += runs.starts[value + 1] - runs.starts[value];
    });
    if (count < (narrowest?.count ?? order.ordinals.length)) narrowest = { runs, values, count };
  }
  if (!narrowest) return order.ordinals;
  const { runs, values } = narrowest;
  const slices = values.map((value) => runs.ordinals.subarray(runs.starts[value], runs.starts[value + 1]));
  if (slices.length === 1) return slices[0];
  // Several values' rows are merged by sorting them: cheaper than walking every row only while they are few.
  if (narrowest.count * Math.log2(narrowest.count) >= order.ordinals.length) return order.ordinals;
  const merged = new Int32Array(narrowest.count);
  let at = 0;
  for (const slice of slices) merged.set(slice, (at += slice.length) - slice.length);
  return merged.sort((a, b) => order.places[a] - order.places[b]);
}

function runsOf(dictionary: Dictionary, order: RowOrder, sort: SortOrder): ValueRuns {
  const built = dictionary.runs[sort];
  if (built) return built;
  const starts = new Int32Array(dictionary.values.length + 1);
  for (const value of dictionary.of) if (value !== -1) starts[value + 1]++;
  for (let value = 0; value < dictionary.values.length; value++) starts[value + 1] += starts[value];
  const next = starts.slice(0, -1);
  const ordinals = new Int32Array(starts[dictionary.values.length]);
  for (const at of order.ordinals) {
    const value = dictionary.of[at];
    if (value !== -1) ordinals[next[value]++] = at;
  }
  return (dictionary.runs[sort] = { starts, ordinals });
}

const FACET_LIMIT = 10;

/** An unfiltered listing's facets: the same for every such listing of a snapshot, so counted once. */
export function everyRowFacets(columns: Columns): ArticleFacets {
  if (!columns.everyRow) {
    const counter = new FacetCounter(columns);
    for (let at = 0; at < columns.publishedAt.length; at++) counter.add(at);
    columns.everyRow = counter.facets();
  }
  return columns.everyRow;
}

/** The facets' counts of the kept rows: each facet's values most frequent first, then in byte order, at most 10. */
export class FacetCounter {
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
