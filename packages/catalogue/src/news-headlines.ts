/**
 * The two headline datasets of ../shared/datasets/news that more than one service ingests (news, and search-results
 * for its news results): where each file is, its attribution, its reader, and the checks of the fields every user
 * of it needs (a link and a title, a real day, epoch milliseconds). What a service makes of a record (its URL and text
 * rules, its row) stays its own.
 */
import path from "node:path";
import type { DatasetAttribution, IngestContext } from "./ingest.js";
import { MalformedRow, requiredField } from "./ingest.js";
import { readCsv, readJsonLines } from "./readers.js";

/** One line of the HuffPost News Category file. */
export interface HuffPostRecord {
  link?: string;
  headline?: string;
  category?: string;
  short_description?: string;
  authors?: string;
  date?: string;
}

export const HUFFPOST_ATTRIBUTION: DatasetAttribution = {
  file: "news/News_Category_Dataset_v3.json",
  title: "News Category Dataset v3 (HuffPost headlines, 10,000 newest of about 210k)",
  upstream: 'Rishabh Misra, "News Category Dataset" (Kaggle rmisra/news-category-dataset; arXiv:2209.11429)',
  licence: "CC BY 4.0",
  copied_from: "github.com/Fred-Stock/Correlated-Topic-Modeling-In-Pytorch @ 65ae8edd71e5cc0ba2d32f9d02be0520fe90b006",
};

export const UCI_NEWS_ATTRIBUTION: DatasetAttribution = {
  file: "news/uci-news-aggregator.csv",
  title: "UCI News Aggregator (sample of 6,366 headlines, 2014-03-10 to 2014-03-12)",
  upstream: 'UCI Machine Learning Repository, "News Aggregator" (Gasparetti, 2017)',
  licence: "CC BY 4.0",
  copied_from: "github.com/pratikaher88/IPythonNotebooks @ 8482bf77238c09f993e4e1a16c789bdc8c4a61fe",
};

export const readHuffPost = (context: IngestContext) => readJsonLines<HuffPostRecord>(path.join(context.datasetsDir, HUFFPOST_ATTRIBUTION.file), context);

export const readUciNews = (context: IngestContext) => readCsv(path.join(context.datasetsDir, UCI_NEWS_ATTRIBUTION.file), context);

/** A HuffPost record's day (YYYY-MM-DD) at 00:00 UTC; a missing or impossible day makes the row malformed. */
function huffPostDay(record: HuffPostRecord): { day: string; date: Date } {
  const day = record.date;
  if (!day) throw new MalformedRow("date is missing");
  const date = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) throw new MalformedRow(`date "${day}" is not a YYYY-MM-DD day`);
  return { day, date };
}

/** A UCI record's TIMESTAMP (epoch milliseconds) as a date; anything else makes the row malformed. */
function uciPublishedAt(record: Record<string, string>): Date {
  const millis = Number(record.TIMESTAMP);
  if (!Number.isFinite(millis) || millis <= 0) throw new MalformedRow(`TIMESTAMP "${record.TIMESTAMP ?? ""}" is not epoch milliseconds`);
  return new Date(millis);
}

/** How a service reads a headline: a link as its canonical URL (null when it is not one), a text cleaned (null when empty). */
export interface HeadlineRules {
  url(raw: string): string | null;
  text(raw: string | undefined): string | null;
}

/** A HuffPost record's fields every user needs, checked in this order: link (by the service's rules), headline, date. */
export function huffPostHeadline(record: HuffPostRecord, rules: HeadlineRules): { url: string; title: string; day: string; date: Date } {
  const url = requiredField(rules.url(record.link ?? ""), "link");
  const title = requiredField(rules.text(record.headline), "headline");
  return { url, title, ...huffPostDay(record) };
}

/** A UCI record's fields every user needs, checked in this order: URL (by the service's rules), TITLE, PUBLISHER, TIMESTAMP. */
export function uciHeadline(record: Record<string, string>, rules: HeadlineRules): { url: string; title: string; publisher: string; date: Date } {
  const url = requiredField(rules.url(record.URL ?? ""), "URL");
  const title = requiredField(rules.text(record.TITLE), "TITLE");
  const publisher = requiredField(rules.text(record.PUBLISHER), "PUBLISHER");
  return { url, title, publisher, date: uciPublishedAt(record) };
}
