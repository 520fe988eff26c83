/**
 * The articles held in memory for text searches (see @apiplat/catalogue's memoryCatalogue): every article's
 * fields and its weighted tsvector, read again after each ingestion run. 28,000 articles take about 60 MB.
 */
import { memoryCatalogue, RANK_NORMALIZATION, tsquerySql, withSearchTimeout, type MemoryCatalogue, type Page } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { searchMatches, type ArticleFacets, type ArticleRow } from "../domain/article-search.js";
import { ARTICLE_COLUMNS, articleFacets, searchArticles, type ArticleFilters, type ArticleRecord, type ArticleSort } from "./articles.js";

export type ArticleCatalogue = MemoryCatalogue<ArticleRow>;

export function articleCatalogue(db: Queryable): ArticleCatalogue {
  return memoryCatalogue(db, async (db) => {
    const { rows } = await db.query<ArticleRow & { vector: string | null }>(`SELECT ${ARTICLE_COLUMNS}, domain, document::text AS vector FROM articles`);
    return { rows: rows.map(({ vector: _vector, ...row }) => row), vectors: { document: rows.map((row) => row.vector) } };
  });
}

/**
 * A search with `q`: matched and ranked in memory; a query the TextIndex leaves to the database (a weight
 * restriction, which websearch syntax cannot write) is answered by the SQL search.
 */
export async function searchArticlesByText(
  catalogue: ArticleCatalogue,
  db: Queryable,
  filters: ArticleFilters & { text: NonNullable<ArticleFilters["text"]> },
  sort: ArticleSort,
  page: Page,
  withFacets: boolean,
): Promise<{ total: number; articles: ArticleRecord[]; facets?: ArticleFacets }> {
  const { text, ...rest } = filters;
  const { snapshot, tsqueries } = await catalogue.compile((filter) => ({ document: tsquerySql(filter, text.query, text.config) }));
  const matches = snapshot.indexes.document.search(tsqueries.document, RANK_NORMALIZATION);
  if (matches) return searchMatches(snapshot.rows, matches, rest, sort, page, withFacets);
  const found = await withSearchTimeout(db, (db) => searchArticles(db, filters, sort, page));
  return withFacets ? { ...found, facets: await articleFacets(db, filters) } : found;
}
