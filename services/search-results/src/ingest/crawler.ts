/**
 * The polite crawler behind `npm run ingest -- search-results --crawl <seed urls>`: breadth-first from the seeds,
 * every request through the outbound guard, robots.txt honoured (our user agent's group, Allow/Disallow, Crawl-delay),
 * one request at a time with a delay between two requests to a host, bounded in pages and in bytes per page, on the
 * seeds' hosts only unless told otherwise. Each page's main text is extracted (Readability) and indexed as a web page.
 * A page that cannot be fetched, is refused by the guard, or is disallowed is reported as a skipped record.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { MalformedRow, textSearchConfig, type IngestionSource, type ReaderItem } from "@apiplat/catalogue";
import { isApiError } from "@apiplat/errors";
import type { OutboundClient } from "@apiplat/outbound-guard";
import { canonicalUrl, cleanText, isExplicit } from "../domain/pages.js";
import { ALLOW_EVERYTHING, isAllowed, parseRobots, type RobotsRules } from "../domain/robots.js";
import { refreshIndex, upsertPages, type WebPageRow } from "../store/index-writes.js";
import { MAX_ELEMENT_DEPTH } from "@apiplat/service-kit";
import { extractPage } from "./extract.js";

export interface CrawlOptions {
  seeds: string[];
  outbound: OutboundClient;
  userAgent: string;
  maxPages: number;
  maxBytesPerPage: number;
  /** Milliseconds between two requests to one host (a robots.txt Crawl-delay that asks for more wins). */
  delayMs: number;
  /** Follow links to the seeds' hosts only (default). */
  sameHost: boolean;
  timeoutMs?: number;
}

export interface CrawledPage {
  url: string;
  title: string | null;
  text: string;
  language: string | null;
  lastModified: Date | null;
  fetchedAt: Date;
}

const ROBOTS_MAX_BYTES = 512 * 1024;

function reason(error: unknown): string {
  return isApiError(error) || error instanceof Error ? error.message : String(error);
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

export function crawlSource(options: CrawlOptions): IngestionSource<CrawledPage, WebPageRow> {
  const requestHeaders = { "user-agent": options.userAgent, accept: "text/html,application/xhtml+xml" };

  async function* crawl(now: () => Date): AsyncGenerator<ReaderItem<CrawledPage>> {
    const robotsByOrigin = new Map<string, RobotsRules | { refused: string }>();
    const lastRequest = new Map<string, number>();
    const seen = new Set<string>();
    const frontier: string[] = [];
    const seedHosts = new Set<string>();
    let line = 0;
    for (const seed of options.seeds) {
      const url = canonicalUrl(seed);
      line += 1;
      if (!url) {
        yield { line, malformed: `seed "${seed}" is not an http(s) URL` };
        continue;
      }
      seedHosts.add(new URL(url).host);
      if (!seen.has(url)) frontier.push(url);
      seen.add(url);
    }

    const politely = async <T>(origin: string, delayMs: number, request: () => Promise<T>): Promise<T> => {
      const wait = (lastRequest.get(origin) ?? -Infinity) + delayMs - performance.now();
      if (wait > 0) await sleep(wait);
      try {
        return await request();
      } finally {
        lastRequest.set(origin, performance.now());
      }
    };

    const robotsOf = async (origin: string): Promise<RobotsRules | { refused: string }> => {
      const known = robotsByOrigin.get(origin);
      if (known) return known;
      let rules: RobotsRules | { refused: string };
      try {
        const answer = await politely(origin, options.delayMs, () =>
          options.outbound.fetch(`${origin}/robots.txt`, { headers: requestHeaders, maxBytes: ROBOTS_MAX_BYTES, timeoutMs: options.timeoutMs }),
        );
        // RFC 9309: no robots.txt (4xx) allows everything; a server error means the site may not be crawled now.
        if (answer.status >= 200 && answer.status < 300) rules = parseRobots(answer.body.toString("utf8"), options.userAgent);
        else if (answer.status >= 400 && answer.status < 500) rules = ALLOW_EVERYTHING;
        else rules = { refused: `robots.txt answered ${answer.status}, so the site is not crawled` };
      } catch (error) {
        rules = { refused: `robots.txt could not be fetched: ${reason(error)}` };
      }
      robotsByOrigin.set(origin, rules);
      return rules;
    };

    let pages = 0;
    while (frontier.length > 0 && pages < options.maxPages) {
      const url = frontier.shift()!;
      line += 1;
      const target = new URL(url);
      const robots = await robotsOf(target.origin);
      if ("refused" in robots) {
        yield { line, malformed: `${url}: ${robots.refused}` };
        continue;
      }
      if (!isAllowed(robots, target.pathname + target.search)) {
        yield { line, malformed: `${url}: disallowed by robots.txt` };
        continue;
      }
      const delayMs = Math.max(options.delayMs, (robots.crawlDelaySeconds ?? 0) * 1000);
      let answer;
      try {
        answer = await politely(target.origin, delayMs, () =>
          options.outbound.fetch(url, { headers: requestHeaders, maxBytes: options.maxBytesPerPage, timeoutMs: options.timeoutMs }),
        );
      } catch (error) {
        yield { line, malformed: `${url}: could not be fetched: ${reason(error)}` };
        continue;
      }
      pages += 1;
      if (answer.status !== 200) {
        yield { line, malformed: `${url}: answered ${answer.status}` };
        continue;
      }
      const type = header(answer.headers, "content-type").toLowerCase();
      if (!type.includes("html")) {
        yield { line, malformed: `${url}: is ${type || "of no stated type"}, not HTML` };
        continue;
      }
      const finalUrl = canonicalUrl(answer.url) ?? url;
      const page = extractPage(answer.body.toString("utf8"), finalUrl);
      for (const link of page.links) {
        const next = canonicalUrl(link);
        if (!next || seen.has(next)) continue;
        if (options.sameHost && !seedHosts.has(new URL(next).host)) continue;
        seen.add(next);
        frontier.push(next);
      }
      if (page.tooDeep) {
        yield { line, malformed: `${url}: has elements nested more than ${MAX_ELEMENT_DEPTH} deep, too deep to read` };
        continue;
      }
      if (page.noindex) {
        yield { line, malformed: `${url}: asks not to be indexed (meta robots noindex)` };
        continue;
      }
      const modified = new Date(header(answer.headers, "last-modified"));
      yield {
        line,
        value: {
          url: finalUrl,
          title: page.title,
          text: page.text,
          language: page.language,
          lastModified: Number.isNaN(modified.getTime()) ? null : modified,
          fetchedAt: now(),
        },
      };
    }
  }

  return {
    name: "crawl",
    live: true,
    attribution: {
      file: "(live) the pages of the seeds given to `npm run ingest -- search-results --crawl <urls>`",
      title: "Crawled web pages (robots.txt honoured, main text extracted with Readability)",
      upstream: "the crawled sites",
      licence: "each page's own; pages are indexed for search and shown as a title, link and snippet",
    },
    read: (context) => crawl(context.now),
    toRows(page) {
      const title = cleanText(page.title) ?? page.url;
      const body = cleanText(page.text);
      if (!body) throw new MalformedRow(`${page.url}: has no text to index`);
      return [
        {
          id: page.url,
          dataset: "crawl",
          url: page.url,
          title,
          body,
          keywords: "",
          published_at: page.lastModified,
          language: page.language,
          explicit: isExplicit(title, body),
          text_config: textSearchConfig(page.language ?? "en"),
          revision: page.fetchedAt.getTime(),
        },
      ];
    },
    upsert: upsertPages,
    finish: refreshIndex,
  };
}
