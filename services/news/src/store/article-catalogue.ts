/**
 * The articles held in memory (see @apiplat/catalogue's memoryCatalogue), the one engine of every search and listing:
 * every article's fields and its weighted tsvector, read again after each ingestion run. 28,000 articles take about
 * 60 MB. The database is the store of record the snapshot is read from.
 *
 * Filters, sorts and facets keep the semantics the catalogue has always had: lists compared lower-cased, the date
 * range from inclusive and to exclusive, ties by newer, then id in byte order; a listing without text has no rank.
 */
import { firstInOrder, memoryCatalogue, rankedSearch, type DateRange, type MemoryCatalogue, type Page, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import {
  absentValues,
  candidateRows,
  columnsOf,
  everyRowFacets,
  FacetCounter,
  filterPlan,
  keepsRow,
  matchesFilters,
  type ArticleFacets,
} from "./article-columns.js";
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

/** A listing (no `q`, no rank): the candidate rows walked in the sort's order, every kept one counted, the page's kept. */
function listArticles(
  rows: readonly ArticleRecord[],
  filters: Omit<ArticleFilters, "text">,
  sort: ArticleSort,
  page: Page,
  withFacets: boolean,
): { total: number; articles: ArticleRecord[]; facets?: ArticleFacets } {
  const columns = columnsOf(rows);
  const plan = filterPlan(columns, filters);
  const order = sort === "popularity" ? "popularity" : "published_at";
  const end = page.offset + page.limit;
  if (!plan) {
    const articles = Array.from(columns.orders[order].ordinals.subarray(page.offset, end), (at) => rows[at]);
    return { total: rows.length, articles, ...(withFacets ? { facets: everyRowFacets(columns) } : {}) };
  }
  const keep = keepsRow(columns, plan);
  const counter = withFacets ? new FacetCounter(columns) : null;
  const articles: ArticleRecord[] = [];
  let total = 0;
  for (const at of candidateRows(columns, plan, order)) {
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

/** Which of a filter's values no article of the snapshot has: a cheap first look before the database is asked. */
export async function valuesNoArticleHas(catalogue: ArticleCatalogue, column: "country" | "category" | "source", values: readonly string[]): Promise<string[]> {
  return absentValues(columnsOf((await catalogue.current()).rows), column, values);
}
