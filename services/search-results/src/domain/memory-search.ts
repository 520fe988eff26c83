/**
 * The three searches over the documents held in memory: the matches the TextIndexes found, filtered, ranked, counted
 * and paged exactly as store/search.ts's SQL does. Ranks are computed in PostgreSQL's types: ts_rank_cd is float4,
 * and `1 + ts_rank_cd(...)` and `boost::float4 * (...)::int` are float8, so the web rank is float8 arithmetic on float4
 * values (JavaScript's numbers); ties by id (web pages and news by their text id in byte order, images by number).
 */
import { byteOrder, firstInOrder, type TextMatches } from "@apiplat/catalogue";
import type { ImageHit, NewsHit } from "../store/search.js";

export interface WebEntry {
  table: "web_pages";
  id: string;
  dataset: string;
  url: string;
  title: string;
  published_at: Date | null;
  language: string | null;
  explicit: boolean;
  /** `title || ' ' || left(body, 300)`, computed by the database: related searches read it. */
  opening: string;
  /** What its snippet is made of. */
  body: string;
  text_config: string;
}

/** An image as a result shows it, with what the filters read. */
export interface ImageEntry extends ImageHit {
  table: "images";
  explicit: boolean;
}

/** A headline as a result shows it, with what the filters read. */
export interface NewsEntry extends NewsHit {
  table: "news_articles";
  id: string;
  explicit: boolean;
}

/** One document of any of the three tables; the indexes of the other tables hold nothing for it. */
export type IndexedEntry = WebEntry | ImageEntry | NewsEntry;

export interface Filters {
  language?: string;
  safe: boolean;
}

export interface Window {
  offset: number;
  limit: number;
}

interface Ranked<Entry> {
  /** The document's number in the indexes. */
  doc: number;
  entry: Entry;
  rank: number;
}

/** Added to the rank of a page that holds every word of the query, in any-word matching (store/search.ts). */
const ALL_WORDS_BOOST = 1;

/**
 * The SQL's WHERE beyond the text match: a web page's language equals the one asked for (NULL never does); images and
 * headlines are all English; safe search leaves out explicit documents.
 */
function keeps<Entry extends IndexedEntry>(table: Entry["table"], filters: Filters): (entry: IndexedEntry) => entry is Entry {
  const language = filters.language || null;
  const languageOk = (entry: IndexedEntry) => language === null || (entry.table === "web_pages" ? entry.language === language : language === "en");
  return (entry): entry is Entry => entry.table === table && languageOk(entry) && !(filters.safe && entry.explicit);
}

/** The matches of one table that pass the filters, with their ts_rank_cd. */
export function keptMatches<Entry extends IndexedEntry>(
  entries: readonly IndexedEntry[],
  matches: TextMatches,
  table: Entry["table"],
  filters: Filters,
): Ranked<Entry>[] {
  const keep = keeps<Entry>(table, filters);
  const kept: Ranked<Entry>[] = [];
  for (let i = 0; i < matches.docs.length; i++) {
    const doc = matches.docs[i];
    const entry = entries[doc];
    if (keep(entry)) kept.push({ doc, entry, rank: matches.ranks[i] });
  }
  return kept;
}

/** ts_rank_cd per document of a match set, for lookups by document. */
function rankByDoc(matches: TextMatches): Map<number, number> {
  const ranks = new Map<number, number>();
  for (let i = 0; i < matches.docs.length; i++) ranks.set(matches.docs[i], matches.ranks[i]);
  return ranks;
}

export interface WebMatches {
  /** What matches (the any-word query in any-word matching, else the query itself), ranked: asked for only when needed. */
  matched: () => TextMatches;
  /** The same documents, without their ranks (cheaper: a total needs only them). */
  matchedDocs: () => Int32Array;
  /** The query needing every word (the same as `matched` without any-word matching). */
  allWords: TextMatches;
  /** Pages whose title alone matches the every-word query. */
  titles: TextMatches;
}

export interface WebRanking {
  titleBoost: number;
  anyWord: boolean;
  /** How many results the page reads: more than it shows on the first page, for related searches. */
  fetched: number;
}

export interface WebPage {
  total: number;
  /** The page's results, then the ones read only for related searches (`fetched` in all). */
  entries: WebEntry[];
  /**
   * True when only the pages holding every word were ranked (the SQL's shortcut when the page lies among them): the
   * snippets are then the every-word query's headlines.
   */
  allWordsOnly: boolean;
}

/**
 * A page of web results, as store/search.ts's searchWeb ranks it. With any-word matching, when the page lies among the
 * pages holding every word, only those are ranked, without ALL_WORDS_BOOST as the SQL does then (float8 sums round
 * differently, so the arithmetic must be the SQL's for the order to be); the total counts every match, unranked.
 */
export function webPage(entries: readonly IndexedEntry[], matches: WebMatches, filters: Filters, ranking: WebRanking, window: Window): WebPage {
  const boost = Math.fround(ranking.titleBoost);
  const inTitle = new Set(matches.titles.docs);
  const boosted = ({ doc, entry }: Ranked<WebEntry>, rank: number) => ({ doc, entry, rank: rank + (inTitle.has(doc) ? boost : 0) });
  const allWords = keptMatches<WebEntry>(entries, matches.allWords, "web_pages", filters);
  if (!ranking.anyWord)
    return pageOf(
      allWords.map((r) => boosted(r, r.rank)),
      allWords.length,
      false,
    );
  if (window.offset + ranking.fetched <= allWords.length) {
    const total = countKept(entries, matches.matchedDocs(), "web_pages", filters);
    return pageOf(
      allWords.map((r) => boosted(r, r.rank)),
      total,
      true,
    );
  }
  const allRanks = rankByDoc(matches.allWords);
  const matched = keptMatches<WebEntry>(entries, matches.matched(), "web_pages", filters);
  const ranked = matched.map((r) => {
    const all = allRanks.get(r.doc);
    return boosted(r, all === undefined ? r.rank : ALL_WORDS_BOOST + all);
  });
  return pageOf(ranked, matched.length, false);

  function pageOf(ranked: Ranked<WebEntry>[], total: number, allWordsOnly: boolean): WebPage {
    const top = firstInOrder(ranked, byRankThenId, window.offset + ranking.fetched).slice(window.offset);
    return { total, entries: top.map((r) => r.entry), allWordsOnly };
  }
}

/** How many of these documents of one table pass the filters. */
function countKept(entries: readonly IndexedEntry[], docs: Int32Array, table: IndexedEntry["table"], filters: Filters): number {
  const keep = keeps(table, filters);
  let count = 0;
  for (const doc of docs) if (keep(entries[doc])) count++;
  return count;
}

const byRankThenId = (a: Ranked<WebEntry | NewsEntry>, b: Ranked<WebEntry | NewsEntry>) => b.rank - a.rank || byteOrder(a.entry.id, b.entry.id);

/** A page of images: ts_rank_cd (float4) descending, then id. */
export function imagePage(entries: readonly IndexedEntry[], matches: TextMatches, filters: Filters, window: Window): { total: number; entries: ImageEntry[] } {
  const kept = keptMatches<ImageEntry>(entries, matches, "images", filters);
  const top = firstInOrder(kept, (a, b) => b.rank - a.rank || a.entry.id - b.entry.id, window.offset + window.limit).slice(window.offset);
  return { total: kept.length, entries: top.map((r) => r.entry) };
}

/** A page of headlines: ts_rank_cd (float4) descending, then newest, then id. */
export function newsPage(entries: readonly IndexedEntry[], matches: TextMatches, filters: Filters, window: Window): { total: number; entries: NewsEntry[] } {
  const kept = keptMatches<NewsEntry>(entries, matches, "news_articles", filters);
  const order = (a: Ranked<NewsEntry>, b: Ranked<NewsEntry>) =>
    b.rank - a.rank || b.entry.published_at.getTime() - a.entry.published_at.getTime() || byteOrder(a.entry.id, b.entry.id);
  const top = firstInOrder(kept, order, window.offset + window.limit).slice(window.offset);
  return { total: kept.length, entries: top.map((r) => r.entry) };
}
