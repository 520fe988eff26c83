import { parseFeed, sourceInfo } from "../domain/adapters/index.js";
import { addDays } from "../domain/rates.js";
import { FeedFormatError, type RateTable, type SourceId } from "../domain/types.js";
import type { RateStore } from "../store/rate-store.js";

export interface FeedSource {
  source: SourceId;
  /** `{date}` is replaced by a YYYY-MM-DD day, today first, then earlier days until a table is found. */
  url: string;
}

export interface FetchOptions {
  /** Extra attempts after a failed one (network error, HTTP error, unreadable body). */
  retries: number;
  /** Wait before the first retry; doubles each time. */
  retryDelayMs: number;
  timeoutMs: number;
  maxBytes: number;
  /** Days a `{date}` URL walks back (weekends and bank holidays publish nothing). */
  dateTemplateDays: number;
}

export const DEFAULT_FETCH_OPTIONS: FetchOptions = { retries: 3, retryDelayMs: 30_000, timeoutMs: 20_000, maxBytes: 10 * 1024 * 1024, dateTemplateDays: 7 };

export interface FetchOutcome {
  source: SourceId;
  ok: boolean;
  attempts: number;
  tables: number;
  latestDate: string | null;
  error: string | null;
}

class NoTableForDate extends Error {}

async function download(url: string, accept: string, options: FetchOptions): Promise<Buffer> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(options.timeoutMs),
    headers: { accept },
    redirect: "follow",
  });
  if (response.status === 404) throw new NoTableForDate(`HTTP 404 from ${new URL(url).host}`);
  if (!response.ok) throw new Error(`HTTP ${response.status} from ${new URL(url).host}`);
  const declared = Number(response.headers.get("content-length") ?? 0);
  if (declared > options.maxBytes) throw new Error(`response of ${declared} bytes exceeds ${options.maxBytes}`);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = reader ? await reader.read() : { done: true as const, value: undefined };
    if (next.done) break;
    size += next.value.length;
    if (size > options.maxBytes) {
      await reader?.cancel();
      throw new Error(`response exceeds ${options.maxBytes} bytes`);
    }
    chunks.push(Buffer.from(next.value));
  }
  return Buffer.concat(chunks);
}

/**
 * Fetches each configured feed, parses it with its bank's adapter and stores the tables. Sources are independent:
 * one failing (after its retries) is recorded and leaves its last good tables in place.
 */
export class FeedFetcher {
  constructor(
    private readonly store: RateStore,
    private readonly feeds: FeedSource[],
    private readonly options: FetchOptions,
    private readonly now: () => Date,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async fetchAll(): Promise<FetchOutcome[]> {
    return Promise.all(this.feeds.map((feed) => this.fetchOne(feed)));
  }

  async fetchOne(feed: FeedSource): Promise<FetchOutcome> {
    const startedAt = this.now();
    let attempts = 0;
    let outcome: FetchOutcome;
    for (;;) {
      attempts += 1;
      try {
        const tables = await this.tablesOf(feed);
        await this.store.saveTables(tables, `fetch:${feed.source}`, this.now());
        const latestDate =
          tables
            .map((t) => t.date)
            .sort()
            .at(-1) ?? null;
        outcome = { source: feed.source, ok: true, attempts, tables: tables.length, latestDate, error: null };
        break;
      } catch (error) {
        if (attempts > this.options.retries) {
          outcome = { source: feed.source, ok: false, attempts, tables: 0, latestDate: null, error: describe(error) };
          break;
        }
        await this.sleep(this.options.retryDelayMs * 2 ** (attempts - 1));
      }
    }
    await this.store.recordFetch({ ...outcome, startedAt, finishedAt: this.now() });
    return outcome;
  }

  private async tablesOf(feed: FeedSource): Promise<RateTable[]> {
    const { accept } = sourceInfo(feed.source);
    if (!feed.url.includes("{date}")) return parseFeed(feed.source, await download(feed.url, accept, this.options));
    const today = this.now().toISOString().slice(0, 10);
    for (let back = 0; back < this.options.dateTemplateDays; back++) {
      const url = feed.url.replaceAll("{date}", addDays(today, -back));
      try {
        return parseFeed(feed.source, await download(url, accept, this.options));
      } catch (error) {
        if (!(error instanceof NoTableForDate || error instanceof FeedFormatError)) throw error;
      }
    }
    throw new Error(`${sourceInfo(feed.source).name}: no table in the last ${this.options.dateTemplateDays} days`);
  }
}

function describe(error: unknown): string {
  const e = error as Error & { cause?: { code?: string } };
  if (e.name === "TimeoutError") return "timed out";
  return e.cause?.code ? `${e.message} (${e.cause.code})` : e.message;
}
