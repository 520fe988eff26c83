import type { PlatformDeps } from "@apiplat/service-kit";
import { findLiveInbox, type InboxRow } from "../store/inboxes.js";

const CHANGED_CHANNEL = "webhook-relay:inbox-changed";

/**
 * Inboxes as the hook URL needs them, kept in memory for a few seconds so that a burst of captures
 * does not read the same row thousands of times. A change made on any replica is announced over
 * pub/sub and drops the entry everywhere; the short lifetime bounds staleness if an announcement is lost.
 */
export class InboxCache {
  private readonly entries = new Map<string, { inbox: InboxRow; loadedAt: number }>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly deps: Pick<PlatformDeps, "db" | "kv" | "now">,
    private readonly ttlMs: number,
    private readonly onAnnounceError: (error: unknown) => void,
    private readonly maxEntries = 10_000,
  ) {}

  async start(): Promise<void> {
    this.unsubscribe = await this.deps.kv.subscribe(CHANGED_CHANNEL, (id) => this.entries.delete(id));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
  }

  async get(id: string): Promise<InboxRow | null> {
    const now = this.deps.now();
    const entry = this.entries.get(id);
    if (entry && Date.now() - entry.loadedAt < this.ttlMs) return entry.inbox.expires_at > now ? entry.inbox : null;
    const inbox = await findLiveInbox(this.deps.db, id, now);
    if (inbox) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(id, { inbox, loadedAt: Date.now() });
    } else {
      this.entries.delete(id);
    }
    return inbox;
  }

  /**
   * Call after changing an inbox: every replica forgets it. The change is already stored, so a cache
   * outage only delays it on other replicas by at most the entry lifetime; it does not fail the call.
   */
  async changed(id: string): Promise<void> {
    this.entries.delete(id);
    await this.deps.kv.publish(CHANGED_CHANNEL, id).catch(this.onAnnounceError);
  }
}
