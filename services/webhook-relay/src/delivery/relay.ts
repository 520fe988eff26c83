import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { errors, SharedRateLimiter, type PlatformDeps } from "@apiplat/service-kit";
import type { OutboundClient } from "@apiplat/outbound-guard";
import { credentialsMatch, parseBasicAuthorization } from "../domain/basic-auth.js";
import { LIMITS } from "../domain/limits.js";
import { insertBodyParts } from "../store/bodies.js";
import { DeliveryWorker } from "./worker.js";
import { findLiveInbox, purgeExpiredInboxes, trimOverfullInboxes, type InboxRow } from "../store/inboxes.js";
import { toBuffer } from "../store/sql.js";
import { CaptureFeed, type CaptureEvent } from "./capture-feed.js";
import { InboxCache } from "./inbox-cache.js";
import { BatchWriter } from "./batch-writer.js";
import { insertCaptures, type CaptureToStore, type StoredCapture } from "../store/requests.js";
import { isPrivate } from "../domain/privacy.js";
import type { RelaySettings } from "../settings.js";

/** Concurrent batch writes per kind; the rest of the pool stays free for reads and the worker. */
const WRITES_IN_FLIGHT = 4;

/**
 * insertCaptures' rows in the order of `items` (RETURNING does not promise an order). A batch checks
 * each account's quota for all its captures at once; those refused with others are tried again alone,
 * so that a capture that fits is not refused for a neighbour that does not.
 */
async function storeCaptures(db: PlatformDeps["db"], items: CaptureToStore[]): Promise<StoredCapture[]> {
  const stored = new Map((await insertCaptures(db, items)).map((s) => [s.id, s]));
  const results: StoredCapture[] = [];
  for (const item of items) {
    let result = stored.get(item.capture.id);
    if (!result) throw new Error(`capture ${item.capture.id} was not stored`);
    if (result.seq === null && items.length > 1) [result] = await insertCaptures(db, [item]);
    results.push(result);
  }
  return results;
}

/** A body too large for the row: the row and the body's parts in one transaction, so never half of it. */
function storeLargeCapture(db: PlatformDeps["db"], item: CaptureToStore): Promise<StoredCapture> {
  return db.transaction(async (tx) => {
    const [stored] = await insertCaptures(tx, [item]);
    if (stored.seq !== null) await insertBodyParts(tx, item.capture.id, item.capture.body);
    return stored;
  });
}

interface InboxAccess {
  inbox: InboxRow;
  owner: boolean;
}

/** The service's moving parts, shared by its routes: delivery worker, capture feed, purge job, access rules. */
export class Relay {
  readonly feed: CaptureFeed;
  readonly worker: DeliveryWorker;
  readonly inboxes: InboxCache;
  readonly captures: BatchWriter<CaptureToStore, StoredCapture>;
  /** Captures per inbox and second, across every replica (see RelaySettings.captureRate). */
  readonly captureRate: SharedRateLimiter;
  private purgeTimer: NodeJS.Timeout | undefined;
  private readonly publishing = new Set<Promise<void>>();
  private readonly capturing = new Set<Promise<unknown>>();
  private unannounced = new Map<string, CaptureEvent[]>();
  private nextAnnouncement: Promise<void> | null = null;

  constructor(
    readonly deps: PlatformDeps,
    readonly outbound: OutboundClient,
    readonly settings: RelaySettings,
    private readonly log: FastifyBaseLogger,
  ) {
    this.feed = new CaptureFeed(deps.kv);
    this.inboxes = new InboxCache(deps, settings.inboxCacheMs, (error) =>
      log.warn({ err: error }, "announcing an inbox change to other replicas failed; they see it within the cache lifetime"),
    );
    this.captures = new BatchWriter((items) => storeCaptures(deps.db, items), WRITES_IN_FLIGHT, settings.captureBatchMax);
    this.captureRate = new SharedRateLimiter(deps.kv, settings.captureRate, "webhook-relay:capture-rate:", (error) =>
      log.warn({ err: error }, "the shared capture rate limit is unavailable (Redis): each replica limits captures on its own until it returns"),
    );
    this.worker = new DeliveryWorker(deps.db, outbound, deps.now, log, {
      concurrency: settings.workerConcurrency,
      pollIntervalMs: settings.pollIntervalMs,
      timeoutMs: settings.forwardTimeoutMs,
      retryPolicy: settings.retryPolicy,
      random: settings.random,
    });
  }

  /** Runs the retention purge every `purgeIntervalMs`; stopPurge ends it. */
  startPurge(): void {
    this.purgeTimer = setInterval(() => {
      void this.track(this.purgeNow().catch((error) => this.log.error({ err: error }, "retention purge failed")));
    }, this.settings.purgeIntervalMs);
    this.purgeTimer.unref();
  }

  stopPurge(): void {
    clearInterval(this.purgeTimer);
  }

  /**
   * Runs work that shutdown must wait for. A capture whose sender hung up mid-request keeps running
   * after the server has closed, and it still needs the database; so does a purge pass.
   */
  track<T>(capture: Promise<T>): Promise<T> {
    this.capturing.add(capture);
    void capture.then(
      () => this.capturing.delete(capture),
      () => this.capturing.delete(capture),
    );
    return capture;
  }

  /** Waits for captures and purge passes still running, then sends the live-stream announcements still queued. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.capturing]);
    void this.flushAnnouncements();
    await Promise.allSettled([...this.publishing]);
  }

  /**
   * Announces a capture to live streams; resolves once it is published (a failure is only logged). The sender is
   * answered after that, so captures taken one after another, on any replica, reach every stream in that order.
   * Captures of one inbox made in the same turn of the event loop go out as one message.
   */
  announce(inboxId: string, event: CaptureEvent): Promise<void> {
    const queued = this.unannounced.get(inboxId);
    if (queued) queued.push(event);
    else this.unannounced.set(inboxId, [event]);
    this.nextAnnouncement ??= new Promise((resolve) =>
      setImmediate(() => {
        this.nextAnnouncement = null;
        resolve(this.flushAnnouncements());
      }),
    );
    return this.nextAnnouncement;
  }

  private flushAnnouncements(): Promise<void> {
    const batches = this.unannounced;
    this.unannounced = new Map();
    const published: Promise<void>[] = [];
    for (const [inboxId, events] of batches) {
      const publishing = this.feed
        .publish(
          inboxId,
          events.sort((a, b) => a.seq - b.seq),
        )
        .catch((error) => this.log.warn({ err: error, inbox_id: inboxId }, "publishing captures to live streams failed"))
        .finally(() => this.publishing.delete(publishing));
      this.publishing.add(publishing);
      published.push(publishing);
    }
    return Promise.all(published).then(() => undefined);
  }

  /** Small captures go in shared batches; a large body is written in parts on its own. */
  storeCapture(item: CaptureToStore): Promise<StoredCapture> {
    return item.bodyInRow ? this.captures.write(item) : storeLargeCapture(this.deps.db, item);
  }

  /** Deletes inboxes past their retention with their captures, then captures past each inbox's cap. */
  async purgeNow(): Promise<{ expired_inboxes: number; trimmed_requests: number }> {
    const expired = await purgeExpiredInboxes(this.deps.db, this.deps.now());
    const trimmed = await trimOverfullInboxes(this.deps.db);
    return { expired_inboxes: expired, trimmed_requests: trimmed };
  }

  async liveInbox(id: string): Promise<InboxRow> {
    const inbox = await findLiveInbox(this.deps.db, id, this.deps.now());
    if (!inbox) throw errors.notFound(`There is no inbox ${id}, or it has expired.`);
    return inbox;
  }

  /**
   * The owner reads everything. As the product description states, anyone holding a public inbox's
   * URL may read it too; a private inbox also lets in a caller presenting its Basic credentials.
   */
  async readableInbox(request: FastifyRequest, id: string): Promise<InboxAccess> {
    const inbox = await this.liveInbox(id);
    if (inbox.account_id === request.subscriber.accountId) return { inbox, owner: true };
    if (!isPrivate(inbox)) return { inbox, owner: false };
    if (inbox.basic_auth_username !== null && inbox.basic_auth_salt && inbox.basic_auth_hash) {
      const stored = { username: inbox.basic_auth_username, salt: toBuffer(inbox.basic_auth_salt), hash: toBuffer(inbox.basic_auth_hash) };
      if (credentialsMatch(parseBasicAuthorization(request.headers.authorization), stored)) return { inbox, owner: false };
    }
    throw errors.forbidden(
      "INBOX_PRIVATE",
      "This inbox is private: only its owner's account, or a caller sending its Basic credentials in Authorization, may read it.",
    );
  }

  async ownedInbox(request: FastifyRequest, id: string): Promise<InboxRow> {
    const inbox = await this.liveInbox(id);
    if (inbox.account_id !== request.subscriber.accountId) {
      throw errors.forbidden("NOT_INBOX_OWNER", "Only the account that created this inbox may change it, forward it or replay its requests.");
    }
    return inbox;
  }
}
