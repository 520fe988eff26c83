import { EventEmitter } from "node:events";
import type { Admission, AdmitRequest, KeyValueStore } from "./key-value.js";
import { gcra, type RateLimit } from "./rate-limit.js";

interface Entry {
  value: string;
  expiresAt: number | null;
}

const SWEEP_INTERVAL_MS = 30_000;

/** The in-process store without REDIS_URL: same semantics as the Redis one, for a single process. */
export function createMemoryStore(now: () => number = Date.now): KeyValueStore {
  const entries = new Map<string, Entry>();
  /** Hashes (usage logs): kept apart from the strings, without expiry (their owners delete them). */
  const hashes = new Map<string, Map<string, number>>();
  const hashIncrement = (key: string, field: string, by: number) => {
    let hash = hashes.get(key);
    if (!hash) hashes.set(key, (hash = new Map()));
    hash.set(field, (hash.get(field) ?? 0) + by);
  };
  /** Lists (click logs): as the hashes, without expiry. */
  const lists = new Map<string, string[]>();
  const ledgers = new Map<string, Map<string, number>>();
  const ledgerOf = (ledger: string) => {
    if (!ledgers.has(ledger)) ledgers.set(ledger, new Map());
    return ledgers.get(ledger)!;
  };
  const fieldsOf = (hash: Map<string, number> | undefined) => Object.fromEntries([...(hash ?? [])].map(([field, n]) => [field, String(n)]));
  const bus = new EventEmitter();
  bus.setMaxListeners(0);

  const read = (key: string): string | null => {
    const entry = entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt !== null && entry.expiresAt <= now()) {
      entries.delete(key);
      return null;
    }
    return entry.value;
  };
  const write = (key: string, value: string, ttlMs?: number) => {
    entries.set(key, { value, expiresAt: ttlMs ? now() + ttlMs : null });
  };
  const increment = (key: string, ttlMs?: number, by = 1): number => {
    const current = read(key);
    const next = (current === null ? 0 : Number(current)) + by;
    if (current === null) write(key, String(next), ttlMs);
    else entries.get(key)!.value = String(next);
    return next;
  };

  /** GCRA on this process's clock: 0 when admitted, else microseconds to wait. */
  const throttle = (key: string, limit: RateLimit): number => {
    const nowMicros = now() * 1000;
    const stored = read(key);
    const step = gcra(stored === null ? undefined : Number(stored), nowMicros, limit);
    if (step.tat === null) return step.waitMicros;
    write(key, String(step.tat), Math.floor((step.tat - nowMicros) / 1000) + 1);
    return 0;
  };

  const sweeper = setInterval(() => {
    for (const key of entries.keys()) read(key);
  }, SWEEP_INTERVAL_MS);
  sweeper.unref();

  return {
    kind: "memory",
    async get(key) {
      return read(key);
    },
    async set(key, value, ttlSeconds) {
      write(key, value, ttlSeconds ? ttlSeconds * 1000 : undefined);
    },
    async del(...keys) {
      for (const key of keys) {
        entries.delete(key);
        hashes.delete(key);
        lists.delete(key);
      }
    },
    async incr(key, ttlSeconds) {
      return increment(key, ttlSeconds ? ttlSeconds * 1000 : undefined);
    },
    async incrBy(key, by, ttlSeconds) {
      return increment(key, ttlSeconds ? ttlSeconds * 1000 : undefined, by);
    },
    async incrIfBelow(key, limit, ttlSeconds) {
      const current = Number(read(key) ?? 0);
      if (current >= limit) return null;
      return increment(key, ttlSeconds ? ttlSeconds * 1000 : undefined);
    },
    async refundRequest(quotaKey, usage) {
      if (read(quotaKey) !== null) increment(quotaKey, undefined, -1);
      if (usage) hashIncrement(usage.log, usage.field, -1);
    },
    async takeHash(from, to, ledger, atMs) {
      const hash = hashes.get(from);
      if (!hash) return null;
      hashes.delete(from);
      hashes.set(to, hash);
      ledgerOf(ledger).set(to, atMs);
      return fieldsOf(hash);
    },
    async takenBefore(ledger, beforeMs) {
      return [...(ledgers.get(ledger) ?? [])].filter(([, at]) => at <= beforeMs).map(([key]) => ({ key, fields: fieldsOf(hashes.get(key)) }));
    },
    async releaseTaken(ledger, key) {
      hashes.delete(key);
      lists.delete(key);
      ledgers.get(ledger)?.delete(key);
    },
    async pushList(key, values) {
      if (values.length === 0) return;
      const list = lists.get(key) ?? [];
      list.push(...values);
      lists.set(key, list);
    },
    async takeList(from, to, ledger, atMs, max) {
      const list = lists.get(from);
      if (!list || list.length === 0) return null;
      const taken = list.splice(0, Math.max(1, max));
      if (list.length === 0) lists.delete(from);
      lists.set(to, [...(lists.get(to) ?? []), ...taken]);
      ledgerOf(ledger).set(to, atMs);
      return taken;
    },
    async takenListsBefore(ledger, beforeMs) {
      return [...(ledgers.get(ledger) ?? [])].filter(([, at]) => at <= beforeMs).map(([key]) => ({ key, values: [...(lists.get(key) ?? [])] }));
    },
    async throttle(key, limit) {
      return Math.ceil(throttle(key, limit) / 1000);
    },
    async admitRequest(request: AdmitRequest): Promise<Admission> {
      let used = read(request.quotaKey);
      if (used === null) {
        if (request.seed === undefined) return { outcome: "needs_seed" };
        used = String(request.seed);
        write(request.quotaKey, used, request.quotaTtlSeconds * 1000);
      }
      const usedCount = Number(used);
      if (request.quotaLimit !== null && usedCount >= request.quotaLimit) return { outcome: "quota_exceeded", used: usedCount };
      if (request.rate !== null) {
        const waitMicros = throttle(request.rateKey, request.rate);
        if (waitMicros > 0) return { outcome: "rate_limited", used: usedCount, retryAfterMs: Math.ceil(waitMicros / 1000) };
      }
      if (request.usage) hashIncrement(request.usage.log, request.usage.field, 1);
      return { outcome: "admitted", used: increment(request.quotaKey) };
    },
    async publish(channel, message) {
      // Delivered asynchronously, as Redis would.
      queueMicrotask(() => bus.emit(channel, message));
    },
    async subscribe(channel, handler) {
      bus.on(channel, handler);
      return async () => {
        bus.off(channel, handler);
      };
    },
    async ping() {},
    async close() {
      clearInterval(sweeper);
      bus.removeAllListeners();
      entries.clear();
      hashes.clear();
      lists.clear();
      ledgers.clear();
    },
  };
}
