import { ClickBuffer, type RawClick } from "./click-buffer.js";
import { ClickLog } from "./click-log.js";
import type { GuardedKv } from "./kv-guard.js";
import type { CountryLookup } from "./geo.js";
import { LruCache } from "../domain/lru.js";
import { referrerDomain } from "../domain/referrer.js";
import type { UserAgentClassifier } from "../domain/user-agent.js";
import { StringPool } from "../domain/string-pool.js";
import { UtcDays, visitorFingerprint } from "../domain/visitor.js";
import { claimClickBatch, forgetClickBatches, writeClicks, type ClickRecord } from "../store/clicks.js";
import { saltForDay } from "../store/salts.js";
import type { Database } from "@apiplat/storage";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";

/** Drained batch ids are kept this long (a batch is retried seconds after it was taken), and forgotten this often. */
const BATCH_IDS_KEPT_DAYS = 2;
const FORGET_BATCHES_EVERY_MS = 3_600_000;
/** Clicks enriched between two pauses (a few hundred microseconds of work). */
const ENRICH_SLICE = 100;

interface ClickRecorderOptions {
  db: Database;
  /** The shared store that holds clicks until they are written (see ClickLog). */
  kv: GuardedKv;
  countries: CountryLookup;
  userAgents: UserAgentClassifier;
  batchSize: number;
  maxBuffered: number;
  onError: (error: unknown, pending: number) => void;
  onDrop: (droppedTotal: number) => void;
}

/**
 * Turns raw clicks into stored ones: country, device, browser, OS, bot flag and visitor fingerprint are
 * derived when a batch is written, so the redirect only appends to the shared click log (or, while the shared
 * store is unreachable, to this process's memory). The client address is used for the country and the
 * fingerprint and then forgotten.
 */
export class ClickRecorder {
  readonly buffer: ClickBuffer;
  readonly log: ClickLog;
  private timer: NodeJS.Timeout | undefined;
  private forgotAt = 0;
  /** Clicks written to PostgreSQL by this process, from the shared log and its own buffer. */
  writtenTotal = 0;
  private readonly salts = new Map<string, Buffer>();
  /** Visitor days known to be stored: their first click was already counted, so they need no database check. */
  private readonly knownVisitorDays = new LruCache<true>(100_000);
  private readonly heldStrings = new StringPool(10_000);
  private readonly referrerDomains = new LruCache<string | null>(10_000);
  private readonly days = new UtcDays();

  constructor(private readonly options: ClickRecorderOptions) {
    this.buffer = new ClickBuffer({
      write: (batch) => this.write(batch),
      batchSize: options.batchSize,
      maxBuffered: options.maxBuffered,
      onError: options.onError,
      onDrop: options.onDrop,
    });
    this.log = new ClickLog(
      options.kv,
      (id, batch) => this.write(batch, id),
      options.batchSize,
      (error) => options.onError(error, this.buffer.size),
    );
  }

  /** Drains the shared log and this process's buffer every `intervalMs`. */
  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  /** Writes what is waiting now: the shared log (every replica's clicks, a bounded number of batches) and this process's buffer. */
  async flush(): Promise<void> {
    await Promise.all([this.log.drain(), this.buffer.flush()]);
    if (Date.now() - this.forgotAt > FORGET_BATCHES_EVERY_MS) {
      this.forgotAt = Date.now();
      await forgetClickBatches(this.options.db, BATCH_IDS_KEPT_DAYS).catch((error: unknown) => this.options.onError(error, this.buffer.size));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.log.drain();
    await this.buffer.close();
  }

  /**
   * Lets waiting redirects through between slices of a batch, so that preparing 5,000 clicks does not hold them up
   * for tens of milliseconds; but not while a whole batch more is already waiting, or under sustained load the
   * writer would fall behind until the buffer overflows and clicks are lost.
   */
  private readonly pause = async (): Promise<void> => {
    if (this.buffer.size < this.options.batchSize) await yieldToEventLoop();
  };

  /**
   * Keeps a click; resolves once it is in the shared log, where a crash of this process cannot lose it (the redirect
   * waits for this). Never rejects: while the shared store fails, the click waits in this process's buffer instead.
   */
  async record(click: RawClick): Promise<void> {
    if (await this.log.append(click)) return;
    this.bufferLocally(click);
  }

  /**
   * A click waits in memory for up to a flush interval, long enough to be copied by young collections, so its user
   * agent and referrer are swapped for an equal string already held: real traffic repeats them, and the request's
   * own copies then die young.
   */
  private bufferLocally(click: RawClick): void {
    click.userAgent = this.heldStrings.intern(click.userAgent);
    if (click.referer !== undefined) click.referer = this.heldStrings.intern(click.referer);
    this.buffer.push(click);
  }

  /** Writes a batch in one transaction; one drained from the shared log under its id, so that a retry writes nothing. */
  private async write(batch: RawClick[], batchId?: string): Promise<void> {
    const records: ClickRecord[] = [];
    let day = "";
    let salt: Buffer | undefined;
    for (const click of batch) {
      const clickDay = this.days.of(click.at);
      if (clickDay !== day) {
        day = clickDay;
        salt = await this.saltFor(day);
      }
      records.push(this.enrich(click, day, salt!));
      if (records.length % ENRICH_SLICE === 0) await this.pause();
    }
    const known = (key: string) => this.knownVisitorDays.get(key) === true;
    const stored = await this.options.db.transaction(async (tx) => {
      if (batchId !== undefined && !(await claimClickBatch(tx, batchId))) return [];
      return writeClicks(tx, records, known, this.pause);
    });
    this.writtenTotal += batch.length;
    for (const key of stored) this.knownVisitorDays.set(key, true, 2 * 86_400_000);
  }

  private enrich(click: RawClick, day: string, salt: Buffer): ClickRecord {
    const profile = this.options.userAgents.classify(click.userAgent);
    return {
      linkId: click.linkId,
      at: click.at,
      day,
      referrerDomain: this.referrerDomainOf(click.referer),
      country: this.options.countries.country(click.ip),
      deviceType: profile.deviceType,
      browser: profile.browser,
      os: profile.os,
      isBot: profile.isBot,
      visitorHash: visitorFingerprint(salt, click.linkId, click.ip, click.userAgent),
      counted: click.counted,
    };
  }

  private referrerDomainOf(referer: string | undefined): string | null {
    if (referer === undefined) return null;
    const known = this.referrerDomains.get(referer);
    if (known !== undefined) return known;
    const domain = referrerDomain(referer);
    this.referrerDomains.set(referer, domain, 3_600_000);
    return domain;
  }

  private async saltFor(day: string): Promise<Buffer> {
    const known = this.salts.get(day);
    if (known) return known;
    const salt = await saltForDay(this.options.db, day);
    this.salts.set(day, salt);
    for (const oldDay of this.salts.keys()) if (oldDay < day && this.salts.size > 2) this.salts.delete(oldDay);
    return salt;
  }
}
