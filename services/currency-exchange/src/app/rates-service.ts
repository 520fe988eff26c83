import { RenderedCache } from "@apiplat/service-kit";
import type { KeyValueStore } from "@apiplat/storage";
import { addDays, DEFAULT_RULE, RateBook, type Quote } from "../domain/rates.js";
import type { RateStore } from "../store/rate-store.js";
import type { SourceId } from "../domain/types.js";

export const CACHE_TTL_SECONDS = 3600;
const CACHE_PREFIX = "currency-exchange:response";
export const UPDATE_CHANNEL = "currency-exchange:rates-updated";
const PAST_DAYS_KEPT = 64;
const RECENT_ANSWERS_KEPT = 2_000;
/** Bounds of the in-process answers: a year-long /timeseries can be over a megabyte and stays in Redis only. */
const RECENT_ANSWER_MAX_CHARS = 256 * 1024;
const RECENT_TOTAL_MAX_CHARS = 32 * 1024 * 1024;
/** Tables loaded around a date: the historical lookback plus the pivot lookback. */
const WINDOW_DAYS = DEFAULT_RULE.historicalLookbackDays + DEFAULT_RULE.pivotLookbackDays;

export interface Logger {
  warn(obj: object, msg: string): void;
}

/**
 * Reads rates for the routes: builds RateBooks from the store, caches computed answers in the key-value
 * store for an hour under a key that includes the data version, so a new fetch is visible at once.
 */
export class RatesService {
  private version = "0";
  private latest: { key: string; book: Promise<RateBook>; quotes?: Map<string, Quote> } | undefined;
  /** Serialized answers recently served by this process, in front of the shared cache (least recently used first). */
  private readonly recent = new RenderedCache({
    maxEntries: RECENT_ANSWERS_KEPT,
    maxChars: RECENT_TOTAL_MAX_CHARS,
    maxEntryChars: RECENT_ANSWER_MAX_CHARS,
    ttlMs: CACHE_TTL_SECONDS * 1000,
  });
  /** Quote sets of recently asked past days, by version and day (most recently used last). */
  private readonly pastDays = new Map<string, Promise<Map<string, Quote>>>();
  private unsubscribe: (() => Promise<void>) | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: RateStore,
    private readonly kv: KeyValueStore,
    readonly now: () => Date,
    private readonly log: Logger,
  ) {}

  /** Follows other replicas' fetches (pub/sub) and, as a fallback, re-reads the version every minute. */
  async start(): Promise<void> {
    await this.refreshVersion();
    this.unsubscribe = await this.kv.subscribe(UPDATE_CHANNEL, () => void this.refreshVersion().catch(() => undefined));
    this.refreshTimer = setInterval(() => void this.refreshVersion().catch(() => undefined), 60_000);
    this.refreshTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.refreshTimer);
    await this.unsubscribe?.();
  }

  get dataVersion(): string {
    return this.version;
  }

  async refreshVersion(): Promise<void> {
    this.version = await this.store.version();
  }

  /** After this process stored new tables: new version here, and tell the other replicas. */
  async ratesChanged(): Promise<void> {
    await this.refreshVersion();
    await this.kv.publish(UPDATE_CHANNEL, this.version).catch((error) => this.log.warn({ err: error }, "publish failed"));
  }

  today(): string {
    return this.now().toISOString().slice(0, 10);
  }

  /** The book of each source's latest tables, built once per data version and day. */
  private latestBook(): Promise<RateBook> {
    const today = this.today();
    const key = `${this.version}:${today}`;
    if (this.latest?.key !== key) {
      const book = this.store.tablesNear(today, WINDOW_DAYS).then((tables) => new RateBook(tables));
      this.latest = { key, book };
      book.catch(() => (this.latest = undefined));
    }
    return this.latest.book;
  }

  /** The latest quotes as of today: no lookback limit, the answer states the age instead. Computed once per version and day. */
  async latestQuotes(): Promise<Map<string, Quote>> {
    const book = await this.latestBook();
    const memo = this.latest;
    if (!memo) return book.quotesAsOf(this.today(), false);
    memo.quotes ??= book.quotesAsOf(this.today(), false);
    return memo.quotes;
  }

  async coverageToday(): Promise<Map<SourceId, Set<string>>> {
    return (await this.latestBook()).coverageAsOf(this.today());
  }

  async historicalQuotes(date: string): Promise<Map<string, Quote>> {
    const key = `${this.version}:${date}`;
    let quotes = this.pastDays.get(key);
    if (quotes) this.pastDays.delete(key);
    else {
      quotes = this.store.tablesNear(date, WINDOW_DAYS).then((tables) => new RateBook(tables).quotesAsOf(date, true));
      quotes.catch(() => this.pastDays.delete(key));
    }
    this.pastDays.set(key, quotes);
    if (this.pastDays.size > PAST_DAYS_KEPT) this.pastDays.delete(this.pastDays.keys().next().value!);
    return quotes;
  }

  /** Quotes for every publication date in [start, end], each as /historical would give them. */
  async seriesQuotes(start: string, end: string, only?: ReadonlySet<string>): Promise<Array<{ date: string; quotes: Map<string, Quote> }>> {
    const book = new RateBook(await this.store.tablesBetween(addDays(start, -WINDOW_DAYS), end));
    return book.publicationDates(start, end).map((date) => ({ date, quotes: book.quotesAsOf(date, true, only) }));
  }

  /**
   * The serialized answer for `key`: from this process's recent answers, else from the shared one-hour cache
   * (Redis), else computed and stored in both. The shared cache failing never fails the request.
   */
  async cached(key: string, compute: () => Promise<unknown>): Promise<{ json: string; hit: boolean }> {
    const cacheKey = `${CACHE_PREFIX}:${this.version}:${this.today()}:${key}`;
    const local = this.recent.get(cacheKey);
    if (local !== undefined) return { json: local, hit: true };
    let json: string | null = null;
    try {
      json = await this.kv.get(cacheKey);
    } catch (error) {
      this.log.warn({ err: error }, "response cache read failed; computing");
    }
    const hit = json !== null;
    if (json === null) {
      json = JSON.stringify(await compute());
      await this.kv.set(cacheKey, json, CACHE_TTL_SECONDS).catch((error) => this.log.warn({ err: error }, "response cache write failed"));
    }
    this.recent.set(cacheKey, json);
    return { json, hit };
  }
}
