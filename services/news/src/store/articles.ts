import { SqlFilter, facetCountsOf, matchText, splitList, type DateRange, type FacetCount, type Page, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";

export interface ArticleRecord {
  id: string;
  source_id: string;
  source_name: string;
  author: string | null;
  title: string;
  description: string | null;
  url: string | null;
  image_url: string | null;
  published_at: Date;
  category: string | null;
  country: string | null;
  language: string;
  popularity: number | null;
}

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

export const ARTICLE_COLUMNS = "id, source_id, source_name, author, title, description, url, image_url, published_at, category, country, language, popularity";

const lower = (list: string | undefined) => (list === undefined ? undefined : splitList(list.toLowerCase()));

function buildFilter(filters: ArticleFilters): { filter: SqlFilter; rank: string | null } {
  const filter = new SqlFilter();
  const rank = filters.text ? matchText(filter, filters.text.query, { vector: "document", config: filters.text.config }).rank : null;
  filter
    .oneOf("category", lower(filters.categories))
    .oneOf("country", lower(filters.countries))
    .equals("language", filters.language?.toLowerCase())
    .oneOf("source_id", lower(filters.sources))
    .oneOf(
      "domain",
      lower(filters.domains)?.map((d) => d.replace(/^www\./, "")),
    )
    .dateRange("published_at", filters.range ?? {});
  return { filter, rank };
}

/** The newest publication time among the articles the filters keep (text aside): top headlines' window ends there. */
export async function newestPublishedOf(db: Queryable, filters: Omit<ArticleFilters, "text">): Promise<Date | null> {
  const { filter } = buildFilter(filters);
  const { rows } = await db.query<{ newest: Date | null }>(`SELECT max(published_at) AS newest FROM articles ${filter.sql}`, filter.params);
  return rows[0].newest;
}

/**
 * Which of the given values of a filter no article has (for a 400 naming them, as NewsAPI does), and, only then,
 * the values articles do have: countries and categories of articles, ids of sources with articles.
 */
export async function unknownValues(
  db: Queryable,
  field: "country" | "category" | "source",
  values: readonly string[],
): Promise<{ unknown: string[]; known: string[] }> {
  const column = field === "source" ? "source_id" : field;
  const { rows } = await db.query<{ value: string }>(
    `SELECT value FROM unnest($1::text[]) AS wanted(value) WHERE NOT EXISTS (SELECT 1 FROM articles WHERE ${column} = wanted.value)`,
    [values],
  );
  if (rows.length === 0) return { unknown: [], known: [] };
  const known =
    field === "source"
      ? await db.query<{ value: string }>("SELECT id AS value FROM news_sources WHERE article_count > 0 ORDER BY article_count DESC, id LIMIT 20")
      : await db.query<{ value: string }>(`SELECT DISTINCT ${column} AS value FROM articles WHERE ${column} IS NOT NULL ORDER BY 1`);
  return { unknown: rows.map((row) => row.value), known: known.rows.map((row) => row.value) };
}

function orderBy(sort: ArticleSort, rank: string | null): string {
  if (sort === "relevancy" && rank) return `${rank} DESC, published_at DESC, id`;
  if (sort === "popularity") return "popularity DESC NULLS LAST, published_at DESC, id";
  return "published_at DESC, id";
}

export async function searchArticles(
  db: Queryable,
  filters: ArticleFilters,
  sort: ArticleSort,
  page: Page,
): Promise<{ total: number; articles: ArticleRecord[] }> {
  const { filter, rank } = buildFilter(filters);
  const order = orderBy(sort, rank);
  const pageSql = `LIMIT ${filter.param(page.limit)} OFFSET ${filter.param(page.offset)}`;
  const countParams = filter.params.slice(0, -2);
  if (!rank) {
    // A listing: the page comes straight off an index in date order, and the count from an index-only scan;
    // one query with a window count would sort every match instead.
    const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM articles ${filter.sql}`, countParams);
    const { rows } = await db.query<ArticleRecord>(`SELECT ${ARTICLE_COLUMNS} FROM articles ${filter.sql} ORDER BY ${order} ${pageSql}`, filter.params);
    return { total: count.rows[0].n, articles: rows };
  }
  // A text search ranks every match anyway: the total rides along with the page, in one pass.
  const { rows } = await db.query<ArticleRecord & { total: number }>(
    `SELECT ${ARTICLE_COLUMNS}, count(*) OVER ()::int AS total FROM articles ${filter.sql} ORDER BY ${order} ${pageSql}`,
    filter.params,
  );
  if (rows.length > 0) return { total: rows[0].total, articles: rows.map(({ total: _total, ...article }) => article) };
  const count = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM articles ${filter.sql}`, countParams);
  return { total: count.rows[0].n, articles: [] };
}

export async function articleFacets(db: Queryable, filters: ArticleFilters): Promise<Record<"category" | "country" | "source", FacetCount[]>> {
  const { filter } = buildFilter(filters);
  return facetCountsOf(db, {
    from: "articles",
    filter,
    facets: { category: { column: "category", limit: 10 }, country: { column: "country", limit: 10 }, source: { column: "source_id", limit: 10 } },
  });
}
