/**
 * The index held in memory for the three searches (see @apiplat/catalogue's memoryCatalogue): every web page, image
 * and headline with the fields a result shows or a filter reads, and a TextIndex per tsvector column (the pages'
 * `document` and `title_document`, the images' and headlines' `document`), read again after each ingestion run. One
 * round trip compiles the query's tsqueries; matching, ranking, counting and paging happen here (domain/memory-search.ts).
 * The pages' bodies are held too (7.6 MB for the datasets' 6,250 pages), for their snippets (domain/snippets.ts):
 * ts_headline in the database parsed every shown page's whole body on each search, the database's largest cost.
 * What stays in the database: typo correction of a word the vocabulary does not know or holds rarely.
 */
import { memoryCatalogue, RANK_NORMALIZATION, tsquerySql, withSearchTimeout, wordMatcher, type MemoryCatalogue, type TextMatches } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { imagePage, newsPage, webPage, type ImageEntry, type IndexedEntry, type NewsEntry, type WebEntry } from "../domain/memory-search.js";
import { markedSnippet } from "../domain/snippets.js";
import {
  anyWordQuery,
  fetchedFor,
  searchImages,
  searchNews,
  searchWeb,
  type ImageHit,
  type NewsHit,
  type Ranking,
  type SearchRequest,
  type WebHit,
} from "./search.js";
import { RARE_DOCUMENTS } from "./spelling.js";

export interface SearchCatalogue {
  entries: MemoryCatalogue<IndexedEntry>;
  /** The words typo correction may replace although known (held by few documents), as of the last rows read. */
  rareWords(): ReadonlySet<string> | null;
}

const INDEXES = ["web_pages", "web_titles", "images", "news_articles"] as const;

export function searchCatalogue(db: Queryable): SearchCatalogue {
  let rareWords: ReadonlySet<string> | null = null;
  const entries = memoryCatalogue<IndexedEntry>(db, async (db) => {
    const [web, images, news, rare] = await Promise.all([
      db.query<Omit<WebEntry, "table"> & { document: string | null; title_document: string | null }>(
        `SELECT id, dataset, url, title, published_at, language, explicit, title || ' ' || left(body, 300) AS opening, body, text_config,
           document::text AS document, title_document::text AS title_document
         FROM web_pages`,
      ),
      db.query<Omit<ImageEntry, "table"> & { document: string | null }>(
        `SELECT id, title, original, flickr_url, width, height, licence_name, licence_url, explicit, document::text AS document FROM images`,
      ),
      db.query<Omit<NewsEntry, "table"> & { document: string | null }>(
        `SELECT id, url, title, snippet, source_name, published_at, explicit, document::text AS document FROM news_articles`,
      ),
      db.query<{ term: string }>("SELECT term FROM search_vocabulary WHERE documents <= $1", [RARE_DOCUMENTS]),
    ]);
    const rows: IndexedEntry[] = [];
    const vectors = Object.fromEntries(INDEXES.map((name) => [name, [] as (string | null)[]])) as Record<(typeof INDEXES)[number], (string | null)[]>;
    const add = (entry: IndexedEntry, vector: Partial<Record<(typeof INDEXES)[number], string | null>>) => {
      rows.push(entry);
      for (const name of INDEXES) vectors[name].push(vector[name] ?? null);
    };
    for (const { document, title_document, ...page } of web.rows) add({ table: "web_pages", ...page }, { web_pages: document, web_titles: title_document });
    for (const { document, ...image } of images.rows) add({ table: "images", ...image }, { images: document });
    for (const { document, ...article } of news.rows) add({ table: "news_articles", ...article }, { news_articles: document });
    rareWords = new Set(rare.rows.map((row) => row.term));
    return { rows, vectors };
  });
  return { entries, rareWords: () => rareWords };
}

/**
 * A page of web results from memory; the SQL search answers a query the TextIndex leaves to the database (a weight
 * restriction, which websearch syntax cannot write).
 */
export async function searchWebInMemory(
  catalogue: SearchCatalogue,
  db: Queryable,
  request: SearchRequest,
  ranking: Ranking,
): Promise<{ total: number; hits: WebHit[] }> {
  const anyQuery = ranking.anyWord ? anyWordQuery(request.query) : null;
  const { snapshot, tsqueries } = await catalogue.entries.compile((filter) => ({
    matched: tsquerySql(filter, anyQuery ?? request.query, request.config),
    allWords: tsquerySql(filter, request.query, request.config),
  }));
  const { web_pages: pages, web_titles: titles } = snapshot.indexes;
  const allWords = pages.search(tsqueries.allWords, RANK_NORMALIZATION);
  const titleMatches = titles.search(tsqueries.allWords, RANK_NORMALIZATION);
  // The any-word query is ranked only when the page reaches past the pages holding every word; the total needs only
  // its documents (ranking a frequent word on thousands of long pages is what costs).
  const anyDocs = anyQuery ? pages.documentsMatching(tsqueries.matched) : null;
  if (!allWords || !titleMatches || (anyQuery && !anyDocs)) return withSearchTimeout(db, (db) => searchWeb(db, request, ranking));
  let anyRanked: TextMatches | null = null;
  const anyWordMatches = () => (anyRanked ??= pages.search(tsqueries.matched, RANK_NORMALIZATION)!);
  const page = webPage(
    snapshot.rows,
    {
      matched: anyQuery ? anyWordMatches : () => allWords,
      matchedDocs: () => anyDocs ?? allWords.docs,
      allWords,
      titles: titleMatches,
    },
    request,
    { titleBoost: ranking.titleBoost, anyWord: anyQuery !== null, fetched: fetchedFor(request, ranking) },
    request,
  );
  // The snippets highlight what was matched: every word when only the pages holding them all were ranked.
  const matcher = wordMatcher(page.allWordsOnly || !anyQuery ? tsqueries.allWords : tsqueries.matched);
  const hits = page.entries.map(
    (entry, index): WebHit => ({
      dataset: entry.dataset,
      url: entry.url,
      title: entry.title,
      published_at: entry.published_at,
      marked: index < request.limit ? markedSnippet(entry, matcher) : null,
      opening: entry.opening,
    }),
  );
  return { total: page.total, hits };
}

export async function searchImagesInMemory(catalogue: SearchCatalogue, db: Queryable, request: SearchRequest): Promise<{ total: number; hits: ImageHit[] }> {
  const { snapshot, tsqueries } = await catalogue.entries.compile((filter) => ({ matched: tsquerySql(filter, request.query, request.config) }));
  const matches = snapshot.indexes.images.search(tsqueries.matched, RANK_NORMALIZATION);
  if (!matches) return withSearchTimeout(db, (db) => searchImages(db, request));
  const { total, entries } = imagePage(snapshot.rows, matches, request, request);
  return { total, hits: entries.map(({ table: _table, explicit: _explicit, ...hit }) => hit) };
}

export async function searchNewsInMemory(catalogue: SearchCatalogue, db: Queryable, request: SearchRequest): Promise<{ total: number; hits: NewsHit[] }> {
  const { snapshot, tsqueries } = await catalogue.entries.compile((filter) => ({ matched: tsquerySql(filter, request.query, request.config) }));
  const matches = snapshot.indexes.news_articles.search(tsqueries.matched, RANK_NORMALIZATION);
  if (!matches) return withSearchTimeout(db, (db) => searchNews(db, request));
  const { total, entries } = newsPage(snapshot.rows, matches, request, request);
  return { total, hits: entries.map(({ url, title, snippet, source_name, published_at }) => ({ url, title, snippet, source_name, published_at })) };
}
