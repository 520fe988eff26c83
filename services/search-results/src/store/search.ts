/**
 * The three searches: web pages, images (by their captions) and news, each a full-text match ranked by ts_rank_cd
 * with length normalization, one page of results at a time with the total alongside.
 */
import { RANK_NORMALIZATION, SqlFilter, tsquerySql, wordMatcher, type TextQuery } from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { anyWordText } from "../domain/query.js";
import { markedSnippet, type SnippetSource } from "../domain/snippets.js";

export interface SearchRequest {
  query: TextQuery;
  /** The text-search configuration of the query's language. */
  config: string;
  language?: string;
  /** Leave out what matches the explicit-terms list. */
  safe: boolean;
  offset: number;
  limit: number;
}

export interface Ranking {
  /** Added to the rank of a page whose title alone matches the whole query. */
  titleBoost: number;
  /**
   * A plain query (no quotes, exclusions, OR or prefixes) matches pages holding any of its words, those holding all
   * of them first (this much is added to their rank); false: only pages holding every word match.
   */
  anyWord: boolean;
  /** How many of the best results feed related searches (first page only). */
  relatedDepth: number;
}

/** The query as "any of its words", when it is a plain query of two words or more; null otherwise. */
export function anyWordQuery(query: TextQuery): TextQuery | null {
  if (query.prefixes.length > 0) return null;
  const text = anyWordText(query.text);
  return text === null ? null : { ...query, text };
}

type Table = "web_pages" | "images" | "news_articles";

/** Added to the rank of a page that holds every word of the query, in any-word matching: above any partial match. */
const ALL_WORDS_BOOST = 1;

/**
 * The documents of a table that match the request: the text, the language, and safe search. `tsquery` is what
 * matches (every word, or any word with `anyWord`), `allWords()` the query that needs every word.
 */
function matching(table: Table, request: SearchRequest, anyWord = false): { filter: SqlFilter; tsquery: string; allWords: () => string } {
  const filter = new SqlFilter();
  const either = anyWord ? anyWordQuery(request.query) : null;
  const tsquery = tsquerySql(filter, either ?? request.query, request.config);
  // Its values are added only when asked for (a count does not use it, and PostgreSQL refuses unused parameters).
  const allWords = () => (either ? tsquerySql(filter, request.query, request.config) : tsquery);
  filter.where(`document @@ ${tsquery}`);
  if (request.language) {
    // Web pages know their language (crawled pages may not be English); every image caption and headline is English.
    if (table === "web_pages") filter.equals("language", request.language);
    else if (request.language !== "en") filter.where("false");
  }
  if (request.safe) filter.where("NOT explicit");
  return { filter, tsquery, allWords };
}

async function countMatches(db: Queryable, table: Table, request: SearchRequest, anyWord = false): Promise<number> {
  const { filter } = matching(table, request, anyWord);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} ${filter.sql}`, filter.params);
  return rows[0].n;
}

export interface WebHit {
  dataset: string;
  url: string;
  title: string;
  published_at: Date | null;
  /** The snippet with the matched words between the highlight markers; null past the requested page (related only). */
  marked: string | null;
  /** The title and the opening of the body, for related searches. */
  opening: string;
}

/**
 * A page of web results. With any-word matching, when the requested page lies among the pages that hold every word
 * (the usual case), only those are ranked (ranking reads each page's whole vector, and a word such as "beer" is on
 * thousands of pages), and the total still counts the pages holding any word: the order is the same, as every
 * all-words page ranks above every other.
 */
export async function searchWeb(db: Queryable, request: SearchRequest, ranking: Ranking): Promise<{ total: number; hits: WebHit[] }> {
  const anyWord = ranking.anyWord && anyWordQuery(request.query) !== null;
  if (anyWord) {
    const allWordsPages = await countMatches(db, "web_pages", request, false);
    if (request.offset + fetchedFor(request, ranking) <= allWordsPages) {
      const { hits } = await rankedPage(db, request, ranking, false);
      return { total: await countMatches(db, "web_pages", request, true), hits };
    }
  }
  return rankedPage(db, request, ranking, anyWord);
}

/** The first page also reads a few more results than it shows: their titles feed related searches. */
export function fetchedFor(request: SearchRequest, ranking: Ranking): number {
  return request.offset === 0 ? Math.max(request.limit, ranking.relatedDepth) : request.limit;
}

async function rankedPage(db: Queryable, request: SearchRequest, ranking: Ranking, anyWord: boolean): Promise<{ total: number; hits: WebHit[] }> {
  const matched = matching("web_pages", request, anyWord);
  const { filter, tsquery } = matched;
  const allWords = matched.allWords();
  // Pages holding every word rank as the every-word query ranks them (covers of all the words close together),
  // above the pages holding only some, which rank by covers of any word.
  const textRank =
    tsquery === allWords
      ? `ts_rank_cd(document, ${allWords}, ${RANK_NORMALIZATION})`
      : `CASE WHEN document @@ ${allWords} THEN ${ALL_WORDS_BOOST} + ts_rank_cd(document, ${allWords}, ${RANK_NORMALIZATION}) ELSE ts_rank_cd(document, ${tsquery}, ${RANK_NORMALIZATION}) END`;
  const rank = `${textRank} + ${filter.param(ranking.titleBoost)}::float4 * (title_document @@ ${allWords})::int`;
  const fetched = fetchedFor(request, ranking);
  // ordinal counts from the first result of all pages: the page shown ends at offset + limit.
  const shown = filter.param(request.offset + request.limit);
  const { rows } = await db.query<Omit<WebHit, "marked"> & SnippetSource & { total: number; shown: boolean; tsquery: string }>(
    `SELECT p.dataset, p.url, p.title, p.published_at, m.total, m.ordinal <= ${shown} AS shown,
       CASE WHEN m.ordinal <= ${shown} THEN p.body ELSE '' END AS body, p.text_config, ${tsquery}::text AS tsquery,
       p.title || ' ' || left(p.body, 300) AS opening
     FROM (SELECT id, rank, count(*) OVER ()::int AS total, row_number() OVER (ORDER BY rank DESC, id) AS ordinal
           FROM (SELECT id, ${rank} AS rank FROM web_pages ${filter.sql}) ranked
           ORDER BY rank DESC, id LIMIT ${filter.param(fetched)} OFFSET ${filter.param(request.offset)}) m
     JOIN web_pages p ON p.id = m.id
     ORDER BY m.ordinal`,
    filter.params,
  );
  if (rows.length === 0) return { total: await countMatches(db, "web_pages", request, anyWord), hits: [] };
  const matcher = wordMatcher(rows[0].tsquery);
  const hits = rows.map(({ dataset, url, title, published_at, opening, shown, body, text_config }) => ({
    dataset,
    url,
    title,
    published_at,
    marked: shown ? markedSnippet({ title, body, text_config }, matcher) : null,
    opening,
  }));
  return { total: rows[0].total, hits };
}

export interface ImageHit {
  id: number;
  title: string | null;
  original: string;
  flickr_url: string | null;
  width: number | null;
  height: number | null;
  licence_name: string | null;
  licence_url: string | null;
}

export async function searchImages(db: Queryable, request: SearchRequest): Promise<{ total: number; hits: ImageHit[] }> {
  const { filter, tsquery } = matching("images", request);
  const { rows } = await db.query<ImageHit & { total: number }>(
    `SELECT id, title, original, flickr_url, width, height, licence_name, licence_url, count(*) OVER ()::int AS total
     FROM images ${filter.sql}
     ORDER BY ts_rank_cd(document, ${tsquery}, ${RANK_NORMALIZATION}) DESC, id
     LIMIT ${filter.param(request.limit)} OFFSET ${filter.param(request.offset)}`,
    filter.params,
  );
  if (rows.length > 0) return { total: rows[0].total, hits: rows.map(({ total: _total, ...hit }) => hit) };
  return { total: await countMatches(db, "images", request), hits: [] };
}

export interface NewsHit {
  url: string;
  title: string;
  snippet: string | null;
  source_name: string;
  published_at: Date;
}

export async function searchNews(db: Queryable, request: SearchRequest): Promise<{ total: number; hits: NewsHit[] }> {
  const { filter, tsquery } = matching("news_articles", request);
  const { rows } = await db.query<NewsHit & { total: number }>(
    `SELECT url, title, snippet, source_name, published_at, count(*) OVER ()::int AS total
     FROM news_articles ${filter.sql}
     ORDER BY ts_rank_cd(document, ${tsquery}, ${RANK_NORMALIZATION}) DESC, published_at DESC, id
     LIMIT ${filter.param(request.limit)} OFFSET ${filter.param(request.offset)}`,
    filter.params,
  );
  if (rows.length > 0) return { total: rows[0].total, hits: rows.map(({ total: _total, ...hit }) => hit) };
  return { total: await countMatches(db, "news_articles", request), hits: [] };
}
