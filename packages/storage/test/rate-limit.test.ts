import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMemoryStore, createRedisStore, DenyCache, gcra, intervalMicros, type KeyValueStore, type RateLimit } from "../src/index.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("GCRA", () => {
  const limit: RateLimit = { perSecond: 5, burst: 5 };

  /** Requests every `everyMs` for `forMs` from a quiet start; how many pass. */
  function admitted(everyMs: number, forMs: number, rate: RateLimit): number {
    let tat: number | undefined;
    let passed = 0;
    for (let at = 0; at < forMs; at += everyMs) {
      const step = gcra(tat, at * 1000, rate);
      if (step.tat !== null) {
        tat = step.tat;
        passed++;
      }
    }
    return passed;
  }

  it("lets the burst through at once, then one request per interval, and says how long to wait", () => {
    let tat: number | undefined;
    for (let i = 0; i < 5; i++) {
      const step = gcra(tat, 0, limit);
      expect(step.waitMicros).toBe(0);
      tat = step.tat!;
    }
    expect(gcra(tat, 0, limit)).toEqual({ tat: null, waitMicros: 200_000 });
    expect(gcra(tat, 150_000, limit)).toEqual({ tat: null, waitMicros: 50_000 });
    expect(gcra(tat, 200_000, limit).waitMicros).toBe(0);
  });

  it("admits burst + T x rate - 1 in a flood of T seconds, whatever the spacing of the flood", () => {
    for (const everyMs of [1, 3, 7]) expect(admitted(everyMs, 10_000, limit)).toBe(5 + 10 * 5 - 1);
    // The webhook relay's inbox: 10 a second with bursts of 20.
    expect(admitted(1, 5_000, { perSecond: 10, burst: 20 })).toBe(20 + 50 - 1);
  });

  it("never admits more than 2N - 1 in any one second with burst N", () => {
    const times: number[] = [];
    let tat: number | undefined;
    for (let at = 0; at < 5_000; at += 1) {
      const step = gcra(tat, at * 1000, limit);
      if (step.tat !== null) {
        tat = step.tat;
        times.push(at);
      }
    }
    const worst = Math.max(...times.map((start) => times.filter((t) => t >= start && t < start + 1000).length));
    expect(worst).toBe(2 * 5 - 1);
  });

  it("rounds the interval up, never faster than the rate", () => {
    expect(intervalMicros({ perSecond: 3, burst: 1 })).toBe(333_334);
    expect(intervalMicros({ perSecond: 100, burst: 100 })).toBe(10_000);
  });
});

describe("DenyCache", () => {
  it("refuses a key until the instant it was refused to, then forgets it", () => {
    const cache = new DenyCache();
    cache.refuse("k", 1_000, 200, 42);
    expect(cache.refusal("k", 1_100)).toEqual({ remainingMs: 100, note: 42 });
    expect(cache.refusal("k", 1_200)).toBeUndefined();
    expect(cache.refusal("other", 1_100)).toBeUndefined();
  });

  it("stays within its size", () => {
    const cache = new DenyCache(3);
    for (let i = 0; i < 10; i++) cache.refuse(`k${i}`, 0, 1_000);
    expect(["k0", "k1", "k6"].map((k) => cache.refusal(k, 0))).toEqual([undefined, undefined, undefined]);
    expect(cache.refusal("k9", 0)?.remainingMs).toBe(1_000);
  });
});

describe("the stores' shared limits", () => {
  const prefix = `test:rate:${randomBytes(4).toString("hex")}:`;
  let replicas: KeyValueStore[];
  beforeAll(async () => {
    // Three connections stand for three replicas.
    replicas = await Promise.all([1, 2, 3].map(() => createRedisStore(REDIS_URL, { keyPrefix: prefix })));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("throttles across processes: 60 parallel captures over three replicas, 20 admitted (the burst)", async () => {
    const waits = await Promise.all(Array.from({ length: 60 }, (_, i) => replicas[i % 3].throttle("inbox", { perSecond: 10, burst: 20 })));
    expect(waits.filter((w) => w === 0)).toHaveLength(20);
    for (const wait of waits.filter((w) => w > 0)) expect(wait).toBeGreaterThan(0), expect(wait).toBeLessThanOrEqual(100);
  });

  it("admits a metered request with its rate and its month in one script, exactly across processes", async () => {
    const admit = (store: KeyValueStore) =>
      store.admitRequest({ rateKey: "rate:a", rate: { perSecond: 5, burst: 5 }, quotaKey: "quota:a", quotaLimit: 100, quotaTtlSeconds: 60, seed: 0 });
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => admit(replicas[i % 3])));
    const passed = outcomes.filter((o) => o.outcome === "admitted");
    expect(passed).toHaveLength(5);
    expect(passed.map((o) => (o as { used: number }).used).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
    const limited = outcomes.filter((o) => o.outcome === "rate_limited") as { retryAfterMs: number; used: number }[];
    expect(limited).toHaveLength(7);
    for (const o of limited) expect(o.retryAfterMs).toBeGreaterThan(0), expect(o.retryAfterMs).toBeLessThanOrEqual(200);
  });

  it("asks for a seed when the month's counter is missing, and refuses at the hard limit without touching the rate", async () => {
    const request = { rateKey: "rate:b", rate: { perSecond: 1, burst: 1 }, quotaKey: "quota:b", quotaLimit: 100, quotaTtlSeconds: 60 };
    expect(await replicas[0].admitRequest(request)).toEqual({ outcome: "needs_seed" });
    expect(await replicas[1].admitRequest({ ...request, seed: 100 })).toEqual({ outcome: "quota_exceeded", used: 100 });
    await replicas[2].refundRequest("quota:b");
    expect(await replicas[2].admitRequest(request)).toEqual({ outcome: "admitted", used: 100 });
    await replicas[0].refundRequest("quota:none");
    expect(await replicas[0].get("quota:none")).toBeNull();
  });

  it("counts admitted requests in a usage log with their admission, gives one back with the counter, and hands the log to one taker", async () => {
    const usage = { log: "usage:log", field: "2026-11 a /x" };
    const request = { rateKey: "rate:c", rate: null, quotaKey: "quota:c", quotaLimit: null, quotaTtlSeconds: 60, seed: 0, usage };
    await Promise.all(Array.from({ length: 9 }, (_, i) => replicas[i % 3].admitRequest(request)));
    await replicas[1].admitRequest({ ...request, usage: { log: "usage:log", field: "2026-11 b /y" } });
    await replicas[2].refundRequest("quota:c", usage);
    expect(await replicas[0].get("quota:c")).toBe("9");
    const takers = await Promise.all(replicas.map((r, i) => r.takeHash("usage:log", `usage:taken:${i}`, "usage:ledger", 1_000 + i)));
    expect(takers.filter((t) => t !== null)).toEqual([{ "2026-11 a /x": "8", "2026-11 b /y": "1" }]);
    const owner = takers.findIndex((t) => t !== null);
    expect(await replicas[0].takenBefore("usage:ledger", 999)).toEqual([]);
    expect(await replicas[1].takenBefore("usage:ledger", 2_000)).toEqual([
      { key: `usage:taken:${owner}`, fields: { "2026-11 a /x": "8", "2026-11 b /y": "1" } },
    ]);
    expect(await replicas[0].takeHash("usage:log", "usage:taken:again", "usage:ledger", 3_000)).toBeNull();
    await replicas[2].releaseTaken("usage:ledger", `usage:taken:${owner}`);
    expect(await replicas[0].takenBefore("usage:ledger", 5_000)).toEqual([]);
    expect(await replicas[0].takeHash(`usage:taken:${owner}`, "usage:taken:gone", "usage:ledger", 6_000)).toBeNull();
  });
});

describe("the in-process store's limits", () => {
  it("follow the same algorithm on the process clock", async () => {
    let now = 1_000_000;
    const store = createMemoryStore(() => now);
    const limit = { perSecond: 10, burst: 20 };
    const waits = [];
    for (let i = 0; i < 21; i++) waits.push(await store.throttle("inbox", limit));
    expect(waits.filter((w) => w === 0)).toHaveLength(20);
    expect(waits[20]).toBe(100);
    now += 100;
    expect(await store.throttle("inbox", limit)).toBe(0);
    const outcome = await store.admitRequest({ rateKey: "r", rate: { perSecond: 1, burst: 1 }, quotaKey: "q", quotaLimit: null, quotaTtlSeconds: 60, seed: 7 });
    expect(outcome).toEqual({ outcome: "admitted", used: 8 });
    expect(await store.admitRequest({ rateKey: "r", rate: { perSecond: 1, burst: 1 }, quotaKey: "q", quotaLimit: null, quotaTtlSeconds: 60 })).toEqual({
      outcome: "rate_limited",
      used: 8,
      retryAfterMs: 1000,
    });
    await store.refundRequest("q", { log: "log", field: "f" });
    expect(await store.get("q")).toBe("7");
    expect(await store.takeHash("log", "taken", "ledger", 5)).toEqual({ f: "-1" });
    expect(await store.takenBefore("ledger", 5)).toEqual([{ key: "taken", fields: { f: "-1" } }]);
    expect(await store.takeHash("log", "taken2", "ledger", 6)).toBeNull();
    await store.releaseTaken("ledger", "taken");
    expect(await store.takenBefore("ledger", 10)).toEqual([]);
    await store.close();
  });
});
