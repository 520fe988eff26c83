import { randomUUID } from "node:crypto";
import type { RawClick } from "./click-buffer.js";
import type { GuardedKv } from "./kv-guard.js";

const LOG = "url-shortener:clicks:log";
const TAKEN = "url-shortener:clicks:taken:";
const LEDGER = "url-shortener:clicks:ledger";
/**
 * A batch still taken this long after it was taken (writing one takes milliseconds): its taker died or lost
 * PostgreSQL, and any process writes it. Writing it twice is safe: the batch id makes the second a no-op.
 */
const ORPHAN_AFTER_MS = 5_000;
/** Batches one drain takes at most before it lets the next timer tick continue (bounds a stats read's wait). */
const MAX_BATCHES_PER_DRAIN = 20;

/** Writes one batch of clicks under its id, once: false when that id was written before. */
type WriteBatch = (id: string, clicks: RawClick[]) => Promise<unknown>;

/**
 * Clicks kept in the shared store (Redis) before the redirect answers, so that a replica killed at any moment has
 * lost none it answered; every replica drains the log into PostgreSQL, each batch taken by one (as paid usage is).
 * The clicks of one event-loop turn go to Redis in one command, which every one of those redirects waits for.
 */
export class ClickLog {
  private queued: string[] = [];
  private pushing: Promise<boolean> | null = null;
  private draining: Promise<void> = Promise.resolve();

  constructor(
    private readonly kv: GuardedKv,
    private readonly writeBatch: WriteBatch,
    private readonly batchSize: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Resolves true once the click is in the shared log, false when the store could not take it (the caller keeps it). */
  append(click: RawClick): Promise<boolean> {
    this.queued.push(encode(click));
    this.pushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      const values = this.queued;
      this.queued = [];
      this.pushing = null;
      return this.kv.call(async (kv) => (await kv.pushList(LOG, values), true), false);
    });
    return this.pushing;
  }

  /** Moves what the log holds to PostgreSQL (a bounded number of batches); concurrent calls queue behind each other. */
  drain(): Promise<void> {
    this.draining = this.draining.then(() => this.drainOnce());
    return this.draining;
  }

  private async drainOnce(): Promise<void> {
    if (!this.kv.available) return;
    try {
      for (let round = 0; round < MAX_BATCHES_PER_DRAIN; round++) {
        const id = `${Date.now()}-${randomUUID()}`;
        const values = await this.kv.store.takeList(LOG, TAKEN + id, LEDGER, Date.now(), this.batchSize);
        if (!values) break;
        await this.write(TAKEN + id, values);
      }
      for (const orphan of await this.kv.store.takenListsBefore(LEDGER, Date.now() - ORPHAN_AFTER_MS)) await this.write(orphan.key, orphan.values);
    } catch (error) {
      // A batch taken stays in the ledger: this process or another writes it after ORPHAN_AFTER_MS.
      this.onError(error);
    }
  }

  private async write(key: string, values: string[]): Promise<void> {
    await this.writeBatch(key.slice(TAKEN.length), values.map(decode));
    await this.kv.store.releaseTaken(LEDGER, key);
  }
}

/** A click as a short JSON array: [link id, time, address, user agent, referer or null, counted 0/1]. */
function encode(click: RawClick): string {
  return JSON.stringify([click.linkId, click.at, click.ip, click.userAgent, click.referer ?? null, click.counted ? 1 : 0]);
}

function decode(value: string): RawClick {
  const [linkId, at, ip, userAgent, referer, counted] = JSON.parse(value) as [number, number, string, string, string | null, number];
  return { linkId, at, ip, userAgent, referer: referer ?? undefined, counted: counted === 1 };
}
