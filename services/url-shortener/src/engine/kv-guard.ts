import type { KeyValueStore } from "@apiplat/storage";

const RETRY_AFTER_MS = 2_000;

/**
 * Calls Redis but never lets an outage reach the caller: a failed call returns the fallback and the
 * store is skipped for a moment, so that redirects keep working from PostgreSQL at full speed.
 */
export class GuardedKv {
  private downUntil = 0;

  constructor(
    readonly store: KeyValueStore,
    private readonly onFailure: (error: unknown) => void = () => {},
  ) {}

  get available(): boolean {
    return Date.now() >= this.downUntil;
  }

  async call<T>(operation: (kv: KeyValueStore) => Promise<T>, fallback: T): Promise<T> {
    if (!this.available) return fallback;
    try {
      return await operation(this.store);
    } catch (error) {
      this.downUntil = Date.now() + RETRY_AFTER_MS;
      this.onFailure(error);
      return fallback;
    }
  }
}
