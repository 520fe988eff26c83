/**
 * The four headline datasets of ../shared/datasets/news (see its SOURCE.md) as ingestion sources. Facts a dataset
 * does not carry stay null: no dataset has images; only HuffPost has authors and descriptions; country comes from
 * the publisher (HuffPost US, ABC AU, Times of India IN) or, for UCI, the host's country-code TLD; every set is
 * English.
 */
import path from "node:path";
import {
  HUFFPOST_ATTRIBUTION,
  type HeadlineRules,
  type HuffPostRecord,
  MalformedRow,
  UCI_NEWS_ATTRIBUTION,
  huffPostHeadline,
  readCsv,
  readHuffPost,
  readUciNews,
  requiredField,
  uciHeadline,
  type IngestionSource,
  type UpsertCounts,
} from "@apiplat/catalogue";
import { refreshDerived, upsertArticles, type ArticleWithPublisher } from "../store/article-writes.js";
import {
  UCI_CATEGORIES,
  articleId,
  canonicalUrl,
  sourceUrl,
  cleanText,
  countryOfHost,
  domainOf,
  normalizeCategory,
  parseCompactDate,
  sourceId,
  type Article,
  type Publisher,
} from "../domain/articles.js";

const HUFFPOST: Publisher = { id: "huffpost", name: "HuffPost", url: "https://www.huffpost.com", category: null, language: "en", country: "us" };
const ABC: Publisher = { id: "abc-news-au", name: "ABC News (AU)", url: "https://www.abc.net.au/news", category: null, language: "en", country: "au" };
const TIMES_OF_INDIA: Publisher = {
  id: "the-times-of-india",
  name: "The Times of India",
  url: "https://timesofindia.indiatimes.com",
  category: null,
  language: "en",
  country: "in",
};

const HEADLINE_RULES: HeadlineRules = { url: canonicalUrl, text: cleanText };

function article(
  publisher: Publisher,
  line: number,
  {
    canonical,
    ...fields
  }: Omit<Article, "source_id" | "source_name" | "language" | "text_config" | "image_url" | "domain" | "country" | "revision"> & {
    country?: string | null;
    /** The canonical URL: the article's identity and domain (its `url` is the source's own). */
    canonical: string | null;
  },
): ArticleWithPublisher {
  return {
    publisher,
    article: {
      ...fields,
      source_id: publisher.id,
      source_name: publisher.name,
      domain: domainOf(canonical),
      image_url: null,
      country: fields.country === undefined ? publisher.country : fields.country,
      language: "en",
      text_config: "english",
      revision: line,
    },
  };
}

export function huffPostSource(): IngestionSource<HuffPostRecord, ArticleWithPublisher> {
  return {
    name: "huffpost",
    attribution: HUFFPOST_ATTRIBUTION,
    read: readHuffPost,
    toRows(record, _context, line) {
      const { url: canonical, title, day, date: publishedAt } = huffPostHeadline(record, HEADLINE_RULES);
      return [
        article(HUFFPOST, line, {
          id: articleId(canonical, "huffpost", day, title),
          canonical,
          dataset: "huffpost",
          author: cleanText(record.authors),
          title,
          description: cleanText(record.short_description),
          url: sourceUrl(record.link ?? ""),
          published_at: publishedAt,
          category: normalizeCategory(record.category),
          story_id: null,
        }),
      ];
    },
    upsert: upsertArticles,
    finish: refreshDerived,
  };
}

export function uciSource(): IngestionSource<Record<string, string>, ArticleWithPublisher> {
  return {
    name: "uci-news-aggregator",
    attribution: UCI_NEWS_ATTRIBUTION,
    read: readUciNews,
    toRows(record, _context, line) {
      const { url: canonical, title, publisher: name, date: publishedAt } = uciHeadline(record, HEADLINE_RULES);
      const host = (record.HOSTNAME ?? "").toLowerCase();
      const publisher: Publisher = {
        id: sourceId(name),
        name,
        url: host ? `https://${host}` : null,
        category: null,
        language: "en",
        country: countryOfHost(host),
      };
      return [
        article(publisher, line, {
          id: articleId(canonical, "uci", publishedAt.toISOString().slice(0, 10), title),
          canonical,
          dataset: "uci-news-aggregator",
          author: null,
          title,
          description: null,
          url: sourceUrl(record.URL ?? ""),
          published_at: publishedAt,
          category: UCI_CATEGORIES[record.CATEGORY ?? ""] ?? null,
          country: countryOfHost(host),
          story_id: cleanText(record.STORY),
        }),
      ];
    },
    upsert: upsertArticles,
    finish: refreshDerived,
  };
}

function headlineOnlySource(options: {
  name: string;
  file: string;
  publisher: Publisher;
  attribution: Omit<IngestionSource["attribution"], "file">;
  category?: (record: Record<string, string>) => string | null;
}): IngestionSource<Record<string, string>, ArticleWithPublisher> {
  return {
    name: options.name,
    attribution: { file: options.file, ...options.attribution },
    read: (context) => readCsv(path.join(context.datasetsDir, options.file), context),
    toRows(record, _context, line) {
      const title = requiredField(cleanText(record.headline_text), "headline_text");
      const day = requiredField(record.publish_date, "publish_date");
      const publishedAt = parseCompactDate(day);
      if (!publishedAt) throw new MalformedRow(`publish_date "${day}" is not a YYYYMMDD day`);
      return [
        article(options.publisher, line, {
          id: articleId(null, options.name, day, title),
          canonical: null,
          dataset: options.name,
          author: null,
          title,
          description: null,
          url: null,
          published_at: publishedAt,
          category: options.category?.(record) ?? null,
          story_id: null,
        }),
      ];
    },
    upsert: upsertArticles,
    finish: refreshDerived,
  };
}

export function abcSource(): IngestionSource<Record<string, string>, ArticleWithPublisher> {
  return headlineOnlySource({
    name: "abc-au",
    file: "news/abcnews_au_headlines_sample.csv",
    publisher: ABC,
    attribution: {
      title: "A Million News Headlines (ABC Australia), sample of 9,998 headlines, 2003-02-19 to 2003-04-07",
      upstream: "Kaggle therohk/million-headlines, headlines of the Australian Broadcasting Corporation",
      licence: "unclear (the Kaggle page is believed to state CC0; the headlines are ABC content)",
      copied_from: "github.com/avgCoderr/Markov @ 16aaa553671512b5b572761f7c1038b8a9871e3a",
    },
  });
}

function timesOfIndiaSource(): IngestionSource<Record<string, string>, ArticleWithPublisher> {
  return headlineOnlySource({
    name: "times-of-india",
    file: "news/india_news_headlines_sample.csv",
    publisher: TIMES_OF_INDIA,
    attribution: {
      title: "India News Headlines (Times of India), sample of 1,999 headlines, 2001-01-01 to 2001-02-24",
      upstream: "Kaggle therohk/india-headlines-news-dataset, headlines of the Times of India",
      licence: "unclear (the Kaggle page is believed to state CC0 or CC BY)",
      copied_from: "github.com/apadkavyrava/nlp-headlines @ e0b759011b32603f0f209f055514323b545c463e",
    },
    category: (record) => normalizeCategory(record.headline_category),
  });
}

export function datasetSources(): IngestionSource<any, ArticleWithPublisher>[] {
  return [huffPostSource(), uciSource(), abcSource(), timesOfIndiaSource()];
}
