/**
 * The index held in memory, the one engine of the three searches (see @apiplat/catalogue's memoryCatalogue): every web
 * page, image and headline with the fields a result shows or a filter reads, and a TextIndex per tsvector column (the
 * pages' `document` and `title_document`, the images' and headlines' `document`), read again after each ingestion run.
 * One round trip compiles the query's tsqueries; matching, ranking, counting and paging happen here. The pages' bodies
 * are held too (7.6 MB for the datasets' 6,250 pages), for their snippets (domain/snippets.ts). PostgreSQL is the
 * store of record the snapshot is read from; it also corrects a word the vocabulary does not know or holds rarely.
 *
 * Ranks are computed in PostgreSQL's types: ts_rank_cd is float4, and `1 + ts_rank_cd(...)` and `boost::float4 *
 * (...)::int` are float8, so the web rank is float8 arithmetic on float4 values (JavaScript's numbers); ties by id
 * (web pages and news by their text id in byte order, images by number).
 */
import {
  byteOrder,
  BestInOrder,
  memoryCatalogue,
  RANK_NORMALIZATION,
  rankedSearch,
  tsquerySql,
  wordMatcher,
  type MemoryCatalogue,
  type TextMatches,
  type TextQuery,
} from "@apiplat/catalogue";
import type { Queryable } from "@apiplat/storage";
import { displayedLink, siteName } from "../domain/pages.js";
import { anyWordText } from "../domain/query.js";
import { readForRelated } from "../domain/related.js";
import { readForSnippets, snippetOf, type Snippet } from "../domain/snippets.js";
import type { ImageRow, NewsRow, WebPageRow } from "./index-writes.js";

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
function anyWordQuery(query: TextQuery): TextQuery | null {
  if (query.prefixes.length > 0) return null;
  const text = anyWordText(query.text);
  return text === null ? null : { ...query, text };
}

/** A page as a result shows it, with what the filters and snippets read (`body`). */
type WebEntry = Omit<WebPageRow, "keywords" | "revision"> & {
  table: "web_pages";
  /** `title || ' ' || left(body, 300)`, computed by the database: related searches read it. */
  opening: string;
  /** The link and site as a result shows them, made once per snapshot (parsing the URL again cost 2 % of a search). */
  displayed_link: string;
  source: string;
};

/** An image as a result shows it, with what the filters read. */
type ImageEntry = Omit<ImageRow, "file_name" | "revision"> & {
  table: "images";
  /** Its first caption; with `explicit`, derived from its captions after a load. */
  title: string | null;
  explicit: boolean;
};

/** A headline as a result shows it, with what the filters read. */
type NewsEntry = Omit<NewsRow, "dataset" | "revision"> & { table: "news_articles" };

/** One document of any of the three tables; the indexes of the other tables hold nothing for it. */
type IndexedEntry = WebEntry | ImageEntry | NewsEntry;

/** An image as a result shows it. */
export type ImageHit = Omit<ImageEntry, "table" | "explicit">;

/** A headline as a result shows it. */
export type NewsHit = Omit<NewsEntry, "table" | "id" | "explicit">;

export interface WebHit {
  url: string;
  displayed_link: string;
  source: string;
  title: string;
  published_at: Date | null;
  /** Null past the requested page (read for related searches only). */
  snippet: Snippet | null;
  /** The title and the opening of the body, for related searches. */
  opening: string;
}

type Filters = Pick<SearchRequest, "language" | "safe">;
type Window = Pick<SearchRequest, "offset" | "limit">;

export interface SearchCatalogue {
  entries: MemoryCatalogue<IndexedEntry>;
  /** The look-alike suggested for each word asked of the database (null: none), since the last rows read. */
  suggestions(): Map<string, string | null>;
}

const INDEXES = ["web_pages", "web_titles", "images", "news_articles"] as const;

export function searchCatalogue(db: Queryable): SearchCatalogue {
  let suggestions = new Map<string, string | null>();
  let readings = 0;
  const entries = memoryCatalogue<IndexedEntry>(db, async (db) => {
    const reading = ++readings;
    const [web, images, news] = await Promise.all([
      db.query<Omit<WebEntry, "table" | "displayed_link" | "source"> & { document: string | null; title_document: string | null }>(
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
    ]);
    const rows: IndexedEntry[] = [];
    const vectors = Object.fromEntries(INDEXES.map((name) => [name, [] as (string | null)[]])) as Record<(typeof INDEXES)[number], (string | null)[]>;
    const add = (entry: IndexedEntry, vector: Partial<Record<(typeof INDEXES)[number], string | null>>) => {
      rows.push(entry);
      for (const name of INDEXES) vectors[name].push(vector[name] ?? null);
    };
    for (const { document, title_document, ...page } of web.rows) {
      const shown = { displayed_link: displayedLink(page.url), source: siteName(page.dataset, page.url) };
      add({ table: "web_pages", ...page, ...shown }, { web_pages: document, web_titles: title_document });
    }
    for (const { document, ...image } of images.rows) add({ table: "images", ...image }, { images: document });
    for (const { document, ...article } of news.rows) add({ table: "news_articles", ...article }, { news_articles: document });
    suggestions = new Map();
    readAhead(
      rows.filter((row): row is WebEntry => row.table === "web_pages"),
      () => reading !== readings,
    );
    return { rows, vectors };
  });
  return { entries, suggestions: () => suggestions };
}

/** At most this many pages are read ahead after a snapshot is read (the datasets hold 4,350); the rest as searches show them. */
const READ_AHEAD_PAGES = 20_000;
/** How long one slice of reading ahead holds the event loop before the requests that wait get their turn. */
const READ_AHEAD_SLICE_MS = 2;

/**
 * Reads the pages of a snapshot for snippets and related searches in the background, in slices between requests,
 * until done or `superseded` (a newer snapshot is being read). A search still reads a page it shows that was not read
 * yet. Before this, the first searches to show a page paid for reading it: about a millisecond a page, 20 to 30 ms for
 * a search whose results were all new, and a tail under load. The datasets' 4,350 pages take about a second of CPU.
 */
function readAhead(pages: readonly WebEntry[], superseded: () => boolean): void {
  const end = Math.min(pages.length, READ_AHEAD_PAGES);
  let next = 0;
  let related = true;
  const slice = () => {
    if (superseded()) return;
    const until = performance.now() + READ_AHEAD_SLICE_MS;
    try {
      for (; next < end && performance.now() < until; next++) {
        readForSnippets(pages[next]);
        related &&= readForRelated(pages[next].opening);
      }
    } catch {
      // Not for the background to report: a search that shows the page reads it the same way and answers the error.
      return;
    }
    if (next < end) setImmediate(slice);
  };
  setImmediate(slice);
}

/** The first page also reads a few more results than it shows: their titles feed related searches. */
function fetchedFor(request: SearchRequest, ranking: Ranking): number {
  return request.offset === 0 ? Math.max(request.limit, ranking.relatedDepth) : request.limit;
}

/** A page of web results, and on the first page a few more read for related searches. */
export async function searchWeb(catalogue: SearchCatalogue, request: SearchRequest, ranking: Ranking): Promise<{ total: number; hits: WebHit[] }> {
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
  const page = webPage(
    snapshot.rows,
    {
      bestMatched: (docs, count) => pages.bestOf(tsqueries.matched, RANK_NORMALIZATION, docs, count),
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
      url: entry.url,
      displayed_link: entry.displayed_link,
      source: entry.source,
      title: entry.title,
      published_at: entry.published_at,
      snippet: index < request.limit ? snippetOf(entry, matcher) : null,
      opening: entry.opening,
    }),
  );
  return { total: page.total, hits };
}

export async function searchImages(catalogue: SearchCatalogue, request: SearchRequest): Promise<{ total: number; hits: ImageHit[] }> {
  const { rows, matches } = await rankedSearch(catalogue.entries, "images", request.query, request.config);
  const { total, entries } = imagePage(rows, matches, request, request);
  return { total, hits: entries.map(({ table: _table, explicit: _explicit, ...hit }) => hit) };
}

export async function searchNews(catalogue: SearchCatalogue, request: SearchRequest): Promise<{ total: number; hits: NewsHit[] }> {
  const { rows, matches } = await rankedSearch(catalogue.entries, "news_articles", request.query, request.config);
  const { total, entries } = newsPage(rows, matches, request, request);
  return { total, hits: entries.map(({ url, title, snippet, source_name, published_at }) => ({ url, title, snippet, source_name, published_at })) };
}

interface Ranked<Entry> {
  /** The document's number in the indexes. */
  doc: number;
  entry: Entry;
  rank: number;
}

/** Added to the rank of a page that holds every word of the query, in any-word matching: above any partial match. */
const ALL_WORDS_BOOST = 1;

/**
 * The filters beyond the text match: a web page's language equals the one asked for (NULL never does); images and
 * headlines are all English; safe search leaves out explicit documents. Null when nothing is filtered: an index holds
 * its own table's documents only, so none of their rows needs reading (each is an object elsewhere in the heap, a
 * cache miss per match, and a broad query matches hundreds).
 */
function keeps<Entry extends IndexedEntry>(table: Entry["table"], filters: Filters): ((entry: IndexedEntry) => entry is Entry) | null {
  if (!filters.language && !filters.safe) return null;
  const language = filters.language || null;
  const languageOk = (entry: IndexedEntry) => language === null || (entry.table === "web_pages" ? entry.language === language : language === "en");
  return (entry): entry is Entry => entry.table === table && languageOk(entry) && !(filters.safe && entry.explicit);
}

/**
 * Offers the matches of one table that pass the filters to `best`, with their ts_rank_cd (as `ranked` makes it of a
 * document's); a match is made into a result only when it would be among the best. How many passed.
 */
function keptMatches<Entry extends IndexedEntry>(
  entries: readonly IndexedEntry[],
  matches: TextMatches,
  table: Entry["table"],
  filters: Filters,
  best: BestInOrder<Ranked<Entry>>,
  ranked?: (doc: number, rank: number) => number,
): number {
  // The order reads an entry's id only to break a tie.
  const keep = keeps<Entry>(table, filters);
  const probe = { doc: 0, entry: undefined as unknown as Entry, rank: 0 };
  let kept = 0;
  for (let i = 0; i < matches.docs.length; i++) {
    const entry = entries[matches.docs[i]];
    if (keep && !keep(entry)) continue;
    kept++;
    probe.doc = matches.docs[i];
    probe.entry = entry as Entry;
    probe.rank = ranked ? ranked(probe.doc, matches.ranks[i]) : matches.ranks[i];
    best.offer(probe, copyRanked);
  }
  return kept;
}

/** A copy of the probe keptMatches reuses: the result it stands for. */
function copyRanked<Entry>(probe: Ranked<Entry>): Ranked<Entry> {
  return { doc: probe.doc, entry: probe.entry, rank: probe.rank };
}

/** The documents (ascending) of one table's index that pass the filters, but for those left out (ascending too). */
function keptDocs(entries: readonly IndexedEntry[], docs: Int32Array, table: IndexedEntry["table"], filters: Filters, leftOut: Int32Array): Int32Array {
  const keep = keeps(table, filters);
  const kept = new Int32Array(docs.length);
  let count = 0;
  for (let d = 0, l = 0; d < docs.length; d++) {
    while (l < leftOut.length && leftOut[l] < docs[d]) l++;
    if (leftOut[l] === docs[d] || (keep && !keep(entries[docs[d]]))) continue;
    kept[count++] = docs[d];
  }
  return kept.subarray(0, count);
}

interface WebMatches {
  /** What matches (the any-word query in any-word matching, else the query itself), unranked. */
  matchedDocs: () => Int32Array;
  /** At least the `count` best of these matched documents, ranked (see TextIndex.bestOf). */
  bestMatched: (docs: Int32Array, count: number) => TextMatches;
  /** The query needing every word (the same as `matched` without any-word matching). */
  allWords: TextMatches;
  /** Pages whose title alone matches the every-word query. */
  titles: TextMatches;
}

interface WebRanking {
  titleBoost: number;
  anyWord: boolean;
  /** How many results the page reads: more than it shows on the first page, for related searches. */
  fetched: number;
}

interface WebPage {
  total: number;
  /** The page's results, then the ones read only for related searches (`fetched` in all). */
  entries: WebEntry[];
  /**
   * True when only the pages holding every word were ranked (the shortcut when the page lies among them): the
   * snippets are then the every-word query's headlines.
   */
  allWordsOnly: boolean;
}

/**
 * A page of web results. With any-word matching, when the page lies among the pages holding every word, only those
 * are ranked (ranking a word such as "beer" on thousands of long pages is what costs), without ALL_WORDS_BOOST (the
 * order among them is the same, but float8 sums round differently with it, and near ties would move); the total
 * counts every match, unranked.
 */
function webPage(entries: readonly IndexedEntry[], matches: WebMatches, filters: Filters, ranking: WebRanking, window: Window): WebPage {
  const boost = Math.fround(ranking.titleBoost);
  const inTitle = new Set(matches.titles.docs);
  // Added in the order the ranks were always summed (rank, then ALL_WORDS_BOOST, then the title's): float8 sums in
  // another order round differently, and near ties would move.
  const boosted = (doc: number, rank: number) => rank + (inTitle.has(doc) ? boost : 0);
  const best = new BestInOrder<Ranked<WebEntry>>(window.offset + ranking.fetched, byRankThenId);
  const pageOf = (total: number, allWordsOnly: boolean): WebPage => ({ total, entries: pageEntries(best, window.offset), allWordsOnly });
  if (!ranking.anyWord) return pageOf(keptMatches(entries, matches.allWords, "web_pages", filters, best, boosted), false);
  if (window.offset + ranking.fetched <= countKept(entries, matches.allWords.docs, "web_pages", filters)) {
    keptMatches(entries, matches.allWords, "web_pages", filters, best, boosted);
    return pageOf(countKept(entries, matches.matchedDocs(), "web_pages", filters), true);
  }
  // Every page holding all the words, and among the others those that could make the page: ranking them all is
  // what a frequent word would cost.
  const allWords = keptMatches(entries, matches.allWords, "web_pages", filters, best, (doc, rank) => boosted(doc, ALL_WORDS_BOOST + rank));
  const partial = keptDocs(entries, matches.matchedDocs(), "web_pages", filters, matches.allWords.docs);
  keptMatches(entries, matches.bestMatched(partial, window.offset + ranking.fetched), "web_pages", filters, best, boosted);
  return pageOf(allWords + partial.length, false);
}

/** How many of these documents of one table pass the filters. */
function countKept(entries: readonly IndexedEntry[], docs: Int32Array, table: IndexedEntry["table"], filters: Filters): number {
  const keep = keeps(table, filters);
  if (!keep) return docs.length;
  let count = 0;
  for (const doc of docs) if (keep(entries[doc])) count++;
  return count;
}

const byRankThenId = (a: Ranked<WebEntry | NewsEntry>, b: Ranked<WebEntry | NewsEntry>) => b.rank - a.rank || byteOrder(a.entry.id, b.entry.id);

/** A page of images: ts_rank_cd (float4) descending, then id. */
function imagePage(entries: readonly IndexedEntry[], matches: TextMatches, filters: Filters, window: Window): { total: number; entries: ImageEntry[] } {
  return tablePage<ImageEntry>(entries, matches, "images", filters, window, (a, b) => b.rank - a.rank || a.entry.id - b.entry.id);
}

/** A page of headlines: ts_rank_cd (float4) descending, then newest, then id. */
function newsPage(entries: readonly IndexedEntry[], matches: TextMatches, filters: Filters, window: Window): { total: number; entries: NewsEntry[] } {
  return tablePage<NewsEntry>(
    entries,
    matches,
    "news_articles",
    filters,
    window,
    (a, b) => b.rank - a.rank || b.entry.published_at.getTime() - a.entry.published_at.getTime() || byteOrder(a.entry.id, b.entry.id),
  );
}

/** A page of one table's matches that pass the filters, in `order`, and how many passed. */
function tablePage<Entry extends IndexedEntry>(
  entries: readonly IndexedEntry[],
  matches: TextMatches,
  table: Entry["table"],
  filters: Filters,
  window: Window,
  order: (a: Ranked<Entry>, b: Ranked<Entry>) => number,
): { total: number; entries: Entry[] } {
  const best = new BestInOrder<Ranked<Entry>>(window.offset + window.limit, order);
  const total = keptMatches(entries, matches, table, filters, best);
  return { total, entries: pageEntries(best, window.offset) };
}

/** The entries of the best results from `offset` on. */
function pageEntries<Entry>(best: BestInOrder<Ranked<Entry>>, offset: number): Entry[] {
  return best
    .best()
    .slice(offset)
    .map((r) => r.entry);
}
