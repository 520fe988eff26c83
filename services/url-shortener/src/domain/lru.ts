/**
 * A size-bounded cache with per-entry expiry; Map insertion order gives least-recently-used eviction.
 *
 * Moving an entry to the recent end on every hit costs a delete and an insert in the Map (about 3 µs a redirect
 * across the link, user-agent and visitor caches, in a CPU profile). An entry moved within the last half of the
 * capacity's worth of moves and inserts cannot be near the eviction end, so a hit there leaves it in place: eviction
 * is least-recently-used to within half the capacity, and the size bound stays exact.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number; movedAt: number }>();
  /** Counts inserts and moves: an entry's `movedAt` says how far from the recent end it can be. */
  private moves = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly clock: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.moves - entry.movedAt >= this.maxEntries / 2) {
      this.entries.delete(key);
      entry.movedAt = ++this.moves;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.clock() + ttlMs, movedAt: ++this.moves });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
