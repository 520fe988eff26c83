/**
 * Live ingestion from RSS and Atom feeds: each configured feed is fetched through the outbound guard with a
 * conditional GET (If-None-Match / If-Modified-Since from the last answer, kept in feed_state), parsed, and its
 * items upserted by canonical URL, so an article seen in two feeds, or again in the same feed, is one article.
 */
import { MalformedRow, textSearchConfig, type IngestionSource } from "@apiplat/catalogue";
import type { OutboundClient } from "@apiplat/outbound-guard";
import type { Queryable } from "@apiplat/storage";
import { articleId, canonicalUrl, domainOf, sourceId, sourceUrl, type Publisher } from "../domain/articles.js";
import { parseFeed, type FeedItem } from "../domain/feeds.js";
import { refreshDerived, upsertArticles, type ArticleWithPublisher } from "../store/article-writes.js";
import { feedState, saveFeedState } from "../store/feed-state.js";

export interface FeedConfig {
  url: string;
  /** The publisher's name; its id is derived from it unless given. */
  name: string;
  source_id?: string;
  /** ISO 3166 alpha-2, lower case. */
  country: string | null;
  /** ISO 639-1. */
  language: string;
  category: string | null;
}

interface FeedRecord {
  feed: FeedConfig;
  item: FeedItem;
}

const FEED_MAX_BYTES = 5 * 1024 * 1024;
const FEED_TIMEOUT_MS = 10_000;

function publisherOf(feed: FeedConfig): Publisher {
  return {
    id: feed.source_id ?? sourceId(feed.name),
    name: feed.name,
    url: canonicalUrl(new URL(feed.url).origin),
    category: feed.category,
    language: feed.language,
    country: feed.country,
  };
}

export function feedSource(options: { feeds: readonly FeedConfig[]; outbound: OutboundClient }): IngestionSource<FeedRecord, ArticleWithPublisher> {
  return {
    name: "rss-feeds",
    live: true,
    attribution: {
      file: `${options.feeds.length} configured RSS/Atom feeds (NEWS_FEEDS)`,
      title: "Live RSS and Atom feeds",
      upstream: options.feeds.map((f) => f.url).join(", ") || "none configured",
      licence: "as stated by each publisher; headlines, links and summaries only",
    },
    async *read({ db, now }) {
      let line = 0;
      for (const feed of options.feeds) {
        const state = await feedState(db, feed.url);
        const headers: Record<string, string> = { accept: "application/rss+xml, application/atom+xml, application/xml;q=0.9, */*;q=0.5" };
        if (state?.etag) headers["if-none-match"] = state.etag;
        if (state?.last_modified) headers["if-modified-since"] = state.last_modified;
        let response;
        try {
          response = await options.outbound.fetch(feed.url, { headers, timeoutMs: FEED_TIMEOUT_MS, maxBytes: FEED_MAX_BYTES });
        } catch (error) {
          yield { line: ++line, malformed: `feed ${feed.url} could not be fetched: ${(error as Error).message}` };
          continue;
        }
        await saveFeedState(db, feed.url, response.status, response.headers, now());
        if (response.status === 304) continue;
        if (response.status !== 200) {
          yield { line: ++line, malformed: `feed ${feed.url} answered HTTP ${response.status}` };
          continue;
        }
        const parsed = parseFeed(response.body.toString("utf8"));
        if (!parsed) {
          yield { line: ++line, malformed: `feed ${feed.url} is neither RSS nor Atom` };
          continue;
        }
        for (const item of parsed.items) yield { line: ++line, value: { feed, item } };
      }
    },
    toRows({ feed, item }, context) {
      const link = item.link ? new URL(item.link, feed.url).toString() : null;
      const canonical = link ? canonicalUrl(link) : null;
      const url = link ? sourceUrl(link) : null;
      if (!canonical || !url) throw new MalformedRow(`an item of ${feed.url} has no http(s) link`);
      if (!item.title) throw new MalformedRow(`the item ${url} has no title`);
      const publisher = publisherOf(feed);
      const publishedAt = item.published_at ?? context.now();
      return [
        {
          publisher,
          article: {
            id: articleId(canonical, "rss", publishedAt.toISOString().slice(0, 10), item.title),
            dataset: "rss-feeds",
            source_id: publisher.id,
            source_name: publisher.name,
            author: item.author,
            title: item.title,
            description: item.description,
            url,
            domain: domainOf(canonical),
            image_url: item.image_url,
            published_at: publishedAt,
            category: feed.category,
            country: feed.country,
            language: feed.language,
            text_config: textSearchConfig(feed.language),
            story_id: null,
            revision: context.now().getTime(),
          },
        },
      ];
    },
    upsert: upsertArticles,
    finish: refreshDerived,
  };
}
