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

type Refused = { refused: string };
type Visit = { malformed: string } | { value: CrawledPage };

/** One crawl's state: what was seen, what is still to visit, each origin's robots.txt and last request. */
class Crawl {
  private readonly robotsByOrigin = new Map<string, RobotsRules | Refused>();
  private readonly lastRequest = new Map<string, number>();
  private readonly seen = new Set<string>();
  private readonly seedHosts = new Set<string>();
  readonly frontier: string[] = [];
  private readonly requestHeaders: Record<string, string>;

  constructor(
    private readonly options: CrawlOptions,
    private readonly now: () => Date,
  ) {
    this.requestHeaders = { "user-agent": options.userAgent, accept: "text/html,application/xhtml+xml" };
  }

  /** Queues a seed; false when it is not an http(s) URL. */
  addSeed(seed: string): boolean {
    const url = canonicalUrl(seed);
    if (!url) return false;
    this.seedHosts.add(new URL(url).host);
    if (!this.seen.has(url)) this.frontier.push(url);
    this.seen.add(url);
    return true;
  }

  /** `request` once `delayMs` have passed since the origin's last request. */
  private async politely<T>(origin: string, delayMs: number, request: () => Promise<T>): Promise<T> {
    const wait = (this.lastRequest.get(origin) ?? -Infinity) + delayMs - performance.now();
    if (wait > 0) await sleep(wait);
    try {
      return await request();
    } finally {
      this.lastRequest.set(origin, performance.now());
    }
  }

  private async robotsOf(origin: string): Promise<RobotsRules | Refused> {
    const known = this.robotsByOrigin.get(origin);
    if (known) return known;
    let rules: RobotsRules | Refused;
    try {
      const answer = await this.politely(origin, this.options.delayMs, () =>
        this.options.outbound.fetch(`${origin}/robots.txt`, { headers: this.requestHeaders, maxBytes: ROBOTS_MAX_BYTES, timeoutMs: this.options.timeoutMs }),
      );
      // RFC 9309: no robots.txt (4xx) allows everything; a server error means the site may not be crawled now.
      if (answer.status >= 200 && answer.status < 300) rules = parseRobots(answer.body.toString("utf8"), this.options.userAgent);
      else if (answer.status >= 400 && answer.status < 500) rules = ALLOW_EVERYTHING;
      else rules = { refused: `robots.txt answered ${answer.status}, so the site is not crawled` };
    } catch (error) {
      rules = { refused: `robots.txt could not be fetched: ${reason(error)}` };
    }
    this.robotsByOrigin.set(origin, rules);
    return rules;
  }

  /** Queues the links not seen yet (on the seeds' hosts unless told otherwise). */
  private follow(links: readonly string[]): void {
    for (const link of links) {
      const next = canonicalUrl(link);
      if (!next || this.seen.has(next)) continue;
      if (this.options.sameHost && !this.seedHosts.has(new URL(next).host)) continue;
      this.seen.add(next);
      this.frontier.push(next);
    }
  }

  /** Whether robots.txt lets us fetch `target`, and the delay it asks between two requests. */
  private async permission(target: URL): Promise<{ refused: string } | { delayMs: number }> {
    const robots = await this.robotsOf(target.origin);
    if ("refused" in robots) return robots;
    if (!isAllowed(robots, target.pathname + target.search)) return { refused: "disallowed by robots.txt" };
    return { delayMs: Math.max(this.options.delayMs, (robots.crawlDelaySeconds ?? 0) * 1000) };
  }

  /** Fetches one page (counted in `fetched` once a request went out) and reads it; its links join the frontier. */
  async visit(url: string, fetched: () => void): Promise<Visit> {
    const target = new URL(url);
    const permission = await this.permission(target);
    if ("refused" in permission) return { malformed: `${url}: ${permission.refused}` };
    let answer;
    try {
      answer = await this.politely(target.origin, permission.delayMs, () =>
        this.options.outbound.fetch(url, { headers: this.requestHeaders, maxBytes: this.options.maxBytesPerPage, timeoutMs: this.options.timeoutMs }),
      );
    } catch (error) {
      return { malformed: `${url}: could not be fetched: ${reason(error)}` };
    }
    fetched();
    if (answer.status !== 200) return { malformed: `${url}: answered ${answer.status}` };
    const type = header(answer.headers, "content-type").toLowerCase();
    if (!type.includes("html")) return { malformed: `${url}: is ${type || "of no stated type"}, not HTML` };
    const finalUrl = canonicalUrl(answer.url) ?? url;
    const page = extractPage(answer.body.toString("utf8"), finalUrl);
    this.follow(page.links);
    if (page.tooDeep) return { malformed: `${url}: has elements nested more than ${MAX_ELEMENT_DEPTH} deep, too deep to read` };
    if (page.noindex) return { malformed: `${url}: asks not to be indexed (meta robots noindex)` };
    const modified = new Date(header(answer.headers, "last-modified"));
    return {
      value: {
        url: finalUrl,
        title: page.title,
        text: page.text,
        language: page.language,
        lastModified: Number.isNaN(modified.getTime()) ? null : modified,
        fetchedAt: this.now(),
      },
    };
  }
}

/** Breadth-first from the seeds until the frontier is empty or maxPages pages were fetched. */
async function* crawl(options: CrawlOptions, now: () => Date): AsyncGenerator<ReaderItem<CrawledPage>> {
  const state = new Crawl(options, now);
  let line = 0;
  for (const seed of options.seeds) {
    line += 1;
    if (!state.addSeed(seed)) yield { line, malformed: `seed "${seed}" is not an http(s) URL` };
  }
  let pages = 0;
  while (state.frontier.length > 0 && pages < options.maxPages) {
    line += 1;
    yield { line, ...(await state.visit(state.frontier.shift()!, () => (pages += 1))) };
  }
}

export function crawlSource(options: CrawlOptions): IngestionSource<CrawledPage, WebPageRow> {
  return {
    name: "crawl",
    live: true,
    attribution: {
      file: "(live) the pages of the seeds given to `npm run ingest -- search-results --crawl <urls>`",
      title: "Crawled web pages (robots.txt honoured, main text extracted with Readability)",
      upstream: "the crawled sites",
      licence: "each page's own; pages are indexed for search and shown as a title, link and snippet",
    },
    read: (context) => crawl(options, context.now),
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
