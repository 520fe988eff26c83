import type { KeyValueStore } from "@apiplat/storage";

interface MonthCounter {
  /** The shared (Redis) value at the last sync, our own synced requests included. */
  known: number;
  /** Requests counted here since the last sync. */
  pending: number;
  ttlSeconds: number;
  lastUsed: number;
}

const IDLE_ENTRY_MS = 60_000;

/**
 * The hot path of plans without a hard limit, kept off the network: their per-second window is counted in
 * this process, and their monthly counter here and added to the shared one every `syncIntervalMs`. (A hard
 * limit, BASIC's, must be exact across processes and goes to the shared store on every request instead.)
 */
export class LocalCounters {
  private readonly windows = new Map<string, { second: number; count: number }>();
  private readonly months = new Map<string, MonthCounter>();
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> = Promise.resolve();

  constructor(
    private readonly kv: KeyValueStore,
    private readonly syncIntervalMs: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sync(), this.syncIntervalMs);
    this.timer.unref();
  }

  /** Counts a request in this second's window; false when the window is already full. */
  takeFromSecond(key: string, second: number, limit: number): boolean {
    const window = this.windows.get(key);
    if (!window || window.second !== second) {
      this.windows.set(key, { second, count: 1 });
      return true;
    }
    if (window.count >= limit) return false;
    window.count++;
    return true;
  }

  /** Counts a request in the month and returns the month's count, or null when this process has none yet. */
  countInMonth(key: string, now: number): number | null {
    const counter = this.months.get(key);
    if (!counter) return null;
    counter.pending++;
    counter.lastUsed = now;
    return counter.known + counter.pending;
  }

  /** The month's count as read from the shared store (this request included). */
  adoptMonth(key: string, used: number, ttlSeconds: number, now: number): void {
    this.months.set(key, { known: used, pending: 0, ttlSeconds, lastUsed: now });
  }

  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.pushPending());
    return this.syncing;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sync();
  }

  private async pushPending(): Promise<void> {
    const now = Date.now();
    for (const [key, window] of this.windows) if (window.second * 1000 < now - 2_000) this.windows.delete(key);
    await Promise.all(
      [...this.months].map(async ([key, counter]) => {
        const sent = counter.pending;
        if (sent === 0) {
          if (now - counter.lastUsed > IDLE_ENTRY_MS) this.months.delete(key);
          return;
        }
        try {
          const value = await this.kv.incrBy(key, sent, counter.ttlSeconds);
          counter.pending -= sent;
          counter.known = value;
          // The shared counter had vanished (store restarted): start over from the durable record.
          if (value === sent) {
            this.months.delete(key);
            await this.kv.del(key);
          }
        } catch (error) {
          this.onError(error);
        }
      }),
    );
  }
}
