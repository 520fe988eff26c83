/**
 * A text search over the articles held in memory: the matches the TextIndex found, filtered, counted, sorted and
 * paged exactly as store/articles.ts's SQL does (lists compared lower-cased, the date range from inclusive and to
 * exclusive, ties by newer, then id in byte order).
 */
import { byteOrder, type FacetCount, facetCountsIn, firstInOrder, type Page, type TextMatches } from "@apiplat/catalogue";
import type { ArticleFilters, ArticleRecord, ArticleSort } from "../store/articles.js";

export interface ArticleRow extends ArticleRecord {
  domain: string | null;
}

interface Ranked {
  row: ArticleRow;
  rank: number;
}

export type ArticleFacets = Record<"category" | "country" | "source", FacetCount[]>;

const listOf = (value: string | undefined) =>
  value === undefined
    ? null
    : new Set(
        value
          .toLowerCase()
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean),
      );

function matchesFilters(filters: Omit<ArticleFilters, "text">): (row: ArticleRow) => boolean {
  const categories = listOf(filters.categories);
  const countries = listOf(filters.countries);
  const sources = listOf(filters.sources);
  const domainList = listOf(filters.domains);
  const domains = domainList && new Set([...domainList].map((d) => d.replace(/^www\./, "")));
  const language = filters.language ? filters.language.toLowerCase() : null;
  const from = filters.range?.from?.getTime();
  const to = filters.range?.to?.getTime();
  const within = (set: Set<string> | null, value: string | null) => !set || set.size === 0 || (value !== null && set.has(value));
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

const ORDERS: Record<ArticleSort, (a: Ranked, b: Ranked) => number> = {
  relevancy: (a, b) => b.rank - a.rank || newerFirst(a, b),
  popularity: (a, b) => (b.row.popularity ?? -Infinity) - (a.row.popularity ?? -Infinity) || newerFirst(a, b),
  published_at: newerFirst,
};

export function searchMatches(
  rows: readonly ArticleRow[],
  matches: TextMatches,
  filters: Omit<ArticleFilters, "text">,
  sort: ArticleSort,
  page: Page,
  withFacets: boolean,
): { total: number; articles: ArticleRecord[]; facets?: ArticleFacets } {
  const keep = matchesFilters(filters);
  const kept: Ranked[] = [];
  for (let i = 0; i < matches.docs.length; i++) {
    const row = rows[matches.docs[i]];
    if (keep(row)) kept.push({ row, rank: matches.ranks[i] });
  }
  const articles = firstInOrder(kept, ORDERS[sort], page.offset + page.limit)
    .slice(page.offset)
    .map(({ row: { domain: _domain, ...article } }) => article);
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
