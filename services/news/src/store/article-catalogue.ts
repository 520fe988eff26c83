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
  facetCountsIn,
  firstInOrder,
  memoryCatalogue,
  RANK_NORMALIZATION,
  splitList,
  tsquerySql,
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

export type ArticleSort = "relevancy" | "published_at" | "popularity";

export type ArticleFacets = Record<"category" | "country" | "source", FacetCount[]>;

interface Ranked {
  row: ArticleRecord;
  rank: number;
}

export function articleCatalogue(db: Queryable): ArticleCatalogue {
  return memoryCatalogue(db, async (db) => {
    const { rows } = await db.query<ArticleRecord & { vector: string | null }>(`SELECT ${ARTICLE_COLUMNS}, document::text AS vector FROM articles`);
    return { rows: rows.map(({ vector: _vector, ...row }) => row), vectors: { document: rows.map((row) => row.vector) } };
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
  const kept = await candidates(catalogue, filters);
  const articles = firstInOrder(kept, ORDERS[sort], page.offset + page.limit)
    .slice(page.offset)
    .map((r) => r.row);
  const facets = withFacets
    ? facetCountsIn(
        kept.map((r) => r.row),
        {
          category: { value: (r) => r.category, limit: 10 },
          country: { value: (r) => r.country, limit: 10 },
          source: { value: (r) => r.source_id, limit: 10 },
        },
      )
    : undefined;
  return { total: kept.length, articles, facets };
}

/** The newest publication time among the articles the filters keep (text aside): top headlines' window ends there. */
export async function newestPublishedOf(catalogue: ArticleCatalogue, filters: Omit<ArticleFilters, "text">): Promise<Date | null> {
  const keep = matchesFilters(filters);
  let newest: Date | null = null;
  for (const row of (await catalogue.current()).rows) {
    if (keep(row) && (newest === null || row.published_at > newest)) newest = row.published_at;
  }
  return newest;
}

/** Every article the filters keep: the text's matches with their rank, or (no text) every article, unranked. */
async function candidates(catalogue: ArticleCatalogue, filters: ArticleFilters): Promise<Ranked[]> {
  const { text, ...rest } = filters;
  const keep = matchesFilters(rest);
  const kept: Ranked[] = [];
  if (!text) {
    for (const row of (await catalogue.current()).rows) if (keep(row)) kept.push({ row, rank: 0 });
    return kept;
  }
  const { snapshot, tsqueries } = await catalogue.compile((filter) => ({ document: tsquerySql(filter, text.query, text.config) }));
  const matches = snapshot.indexes.document.search(tsqueries.document, RANK_NORMALIZATION);
  for (let i = 0; i < matches.docs.length; i++) {
    const row = snapshot.rows[matches.docs[i]];
    if (keep(row)) kept.push({ row, rank: matches.ranks[i] });
  }
  return kept;
}

/** A list filter's values, lower-cased; null when the filter is absent or names nothing. */
function listOf(value: string | undefined): Set<string> | null {
  const values = value === undefined ? [] : splitList(value.toLowerCase());
  return values.length === 0 ? null : new Set(values);
}

function matchesFilters(filters: Omit<ArticleFilters, "text">): (row: ArticleRecord) => boolean {
  const categories = listOf(filters.categories);
  const countries = listOf(filters.countries);
  const sources = listOf(filters.sources);
  const domainList = listOf(filters.domains);
  const domains = domainList && new Set([...domainList].map((d) => d.replace(/^www\./, "")));
  const language = filters.language ? filters.language.toLowerCase() : null;
  const from = filters.range?.from?.getTime();
  const to = filters.range?.to?.getTime();
  const within = (set: Set<string> | null, value: string | null) => !set || (value !== null && set.has(value));
  return (row) =>
    within(categories, row.category) &&
    within(countries, row.country) &&
    within(sources, row.source_id) &&
    within(domains, row.domain) &&
    (language === null || row.language === language) &&
    (from === undefined || row.published_at.getTime() >= from) &&
    (to === undefined || row.published_at.getTime() < to);
}

const newerFirst = (a: Ranked, b: Ranked) => b.row.published_at.getTime() - a.row.published_at.getTime() || byteOrder(a.row.id, b.row.id);

/** Popularity as `popularity DESC NULLS LAST`. */
const popularityOf = (r: Ranked) => r.row.popularity ?? -Infinity;

const ORDERS: Record<ArticleSort, (a: Ranked, b: Ranked) => number> = {
  relevancy: (a, b) => b.rank - a.rank || newerFirst(a, b),
  popularity: (a, b) => (popularityOf(a) === popularityOf(b) ? 0 : popularityOf(b) - popularityOf(a)) || newerFirst(a, b),
  published_at: newerFirst,
};
