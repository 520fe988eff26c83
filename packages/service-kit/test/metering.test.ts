import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform, type TestSubscriber } from "@apiplat/testing";
import { PLANS } from "@apiplat/config";
import { applyUsageBatch, invoice, usageReport } from "@apiplat/metering";
import type { ServiceApp } from "../src/index.js";
import { buildProbeApp } from "./support.js";

// Mid-month, so that the reset header is a known number: 2026-11-16T00:00:00Z is 15 days before December.
const NOW = new Date("2026-11-16T00:00:00Z");
const SECONDS_TO_DECEMBER = 15 * 86_400;

let platform: TestPlatform;
let app: ServiceApp;

beforeAll(async () => {
  platform = await createTestPlatform({ now: () => NOW });
  app = await buildProbeApp(platform.deps);
});
afterAll(async () => {
  await app.close();
  await platform.close();
});

const ping = (sub: TestSubscriber) => app.inject({ method: "GET", url: "/ping", headers: sub.headers });

async function recordedRequests(accountId: string): Promise<number> {
  await app.usage.flush();
  const { rows } = await platform.deps.db.query<{ n: number }>("SELECT coalesce(sum(requests), 0)::bigint AS n FROM usage_counts WHERE account_id = $1", [
    accountId,
  ]);
  return Number(rows[0].n);
}

describe("monthly quota", () => {
  it("gives BASIC exactly 100 requests: the 100th passes with 0 remaining, the 101st is 429 and not counted", async () => {
    const sub = await platform.subscribe("text-toolkit", "BASIC");
    for (let i = 1; i <= 99; i++) expect((await ping(sub)).statusCode).toBe(200);
    const hundredth = await ping(sub);
    expect(hundredth.statusCode).toBe(200);
    expect(hundredth.headers).toMatchObject({
      "x-ratelimit-requests-limit": "100",
      "x-ratelimit-requests-remaining": "0",
      "x-ratelimit-requests-reset": String(SECONDS_TO_DECEMBER),
    });
    const refused = await ping(sub);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ status: "error", error: { code: "QUOTA_EXCEEDED" } });
    expect(refused.headers["x-ratelimit-requests-remaining"]).toBe("0");
    expect(await recordedRequests(sub.accountId)).toBe(100);
  });

  it("never lets a parallel burst past 100 on BASIC", async () => {
    const sub = await platform.subscribe("text-toolkit", "BASIC");
    const statuses = await Promise.all(Array.from({ length: 160 }, () => ping(sub).then((r) => r.statusCode)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60);
    expect(await recordedRequests(sub.accountId)).toBe(100);
  });

  it("lets paid plans go past their allowance and bills the overage", async () => {
    const sub = await platform.subscribe("text-toolkit", "PRO");
    // 9,998 requests already recorded this month (the Redis counter is seeded from PostgreSQL).
    await platform.deps.db.query(
      "INSERT INTO usage_counts (month, account_id, key_id, service, endpoint, requests) VALUES ('2026-11', $1, $2, 'text-toolkit', 'GET /ping', 9998)",
      [sub.accountId, sub.keyId],
    );
    const remaining = [];
    for (let i = 0; i < 5; i++) {
      const res = await ping(sub);
      expect(res.statusCode).toBe(200);
      remaining.push(res.headers["x-ratelimit-requests-remaining"]);
    }
    expect(remaining).toEqual(["1", "0", "0", "0", "0"]);
    expect(await recordedRequests(sub.accountId)).toBe(10_003);
    const bill = await invoice(platform.deps.db, sub.accountId, "2026-11", new Set(["text-toolkit"]));
    expect(bill.lines).toEqual([
      {
        service: "text-toolkit",
        plan: "PRO",
        price: "9.99",
        included_requests: 10_000,
        requests: 10_003,
        overage_requests: 3,
        overage_rate: "0.005",
        overage_amount: "0.015",
        total: "10.005",
      },
    ]);
    expect(bill.total).toBe("10.005");
  });

  it("rebuilds a lost counter from PostgreSQL, so a Redis restart gives BASIC nothing extra", async () => {
    const sub = await platform.subscribe("text-toolkit", "BASIC");
    for (let i = 0; i < 60; i++) await ping(sub);
    await app.usage.flush();
    await platform.deps.kv.del(`quota:${sub.accountId}:text-toolkit:2026-11`);
    const res = await ping(sub);
    expect(res.headers["x-ratelimit-requests-remaining"]).toBe("39");
  });

  it("asks PostgreSQL once for a lost counter when a burst finds it lost, and counts the whole burst on top", async () => {
    const sub = await platform.subscribe("text-toolkit", "PRO");
    await platform.deps.db.query(
      "INSERT INTO usage_counts (month, account_id, key_id, service, endpoint, requests) VALUES ('2026-11', $1, $2, 'text-toolkit', 'GET /ping', 9950)",
      [sub.accountId, sub.keyId],
    );
    const seeds: string[] = [];
    const db = platform.deps.db;
    const counting: typeof db = Object.create(db, {
      query: {
        value: (sql: string, params?: unknown[]) => {
          if (sql.includes("FROM usage_counts WHERE month")) seeds.push(String(params?.[1]));
          return db.query(sql, params);
        },
      },
    });
    const burstApp = await buildProbeApp({ ...platform.deps, db: counting });
    try {
      const answers = await Promise.all(Array.from({ length: 40 }, () => burstApp.inject({ method: "GET", url: "/ping", headers: sub.headers })));
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(40).fill(200));
      expect(seeds).toEqual([sub.accountId]);
      const remaining = answers.map((answer) => Number(answer.headers["x-ratelimit-requests-remaining"])).sort((x, y) => x - y);
      expect(remaining).toEqual(Array.from({ length: 40 }, (_, i) => 10 + i));
    } finally {
      await burstApp.close();
    }
  });

  it("reports usage per service and endpoint", async () => {
    const sub = await platform.subscribe("text-toolkit", "ULTRA");
    for (let i = 0; i < 3; i++) await ping(sub);
    await app.inject({ method: "POST", url: "/echo", headers: sub.headers, payload: { text: "toolong" } });
    await app.usage.flush();
    expect(await usageReport(platform.deps.db, sub.accountId, "2026-11")).toEqual([
      {
        service: "text-toolkit",
        plan: "ULTRA",
        requests: 4,
        included: 100_000,
        overage: 0,
        endpoints: [
          { endpoint: "GET /ping", requests: 3 },
          { endpoint: "POST /echo", requests: 1 },
        ],
      },
    ]);
  });

  it("does not meter public routes", async () => {
    const res = await app.inject({ method: "GET", url: "/public" });
    expect(res.headers["x-ratelimit-requests-limit"]).toBeUndefined();
  });
});

describe("per-second limit", () => {
  let limited: TestPlatform;
  let limitedApp: ServiceApp;
  beforeAll(async () => {
    limited = await createTestPlatform({ now: () => NOW, env: { RATE_LIMITS: "on" } });
    limitedApp = await buildProbeApp(limited.deps);
  });
  afterAll(async () => {
    await limitedApp.close();
    await limited.close();
  });

  it("answers 429 RATE_LIMITED with Retry-After past the plan's requests per second, without counting them", async () => {
    const sub = await limited.subscribe("text-toolkit", "BASIC");
    await warmUp([limitedApp], sub);
    const started = performance.now();
    const responses = await Promise.all(Array.from({ length: 8 }, () => limitedApp.inject({ method: "GET", url: "/ping", headers: sub.headers })));
    const burstMs = performance.now() - started;
    const ok = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode === 429);
    // BASIC allows 5 a second: a burst of 8 gets exactly 5, plus one for each 200 ms a loaded machine spread it over.
    expect(ok.length).toBeGreaterThanOrEqual(5);
    expect(ok.length).toBeLessThanOrEqual(5 + Math.floor(burstMs / 200));
    expect(refused).toHaveLength(8 - ok.length);
    for (const r of refused) {
      expect(r.json().error.code).toBe("RATE_LIMITED");
      expect(r.headers["retry-after"]).toBe("1");
    }
    await limitedApp.usage.flush();
    const { rows } = await limited.deps.db.query<{ n: number }>("SELECT sum(requests)::bigint AS n FROM usage_counts WHERE account_id = $1", [sub.accountId]);
    // The warm-up request and the burst's answered ones; the refused are not counted.
    expect(Number(rows[0].n)).toBe(1 + ok.length);
  });
});

/**
 * One request on each instance (loading the key's grant and seeding the month's counter, which a burst of a fresh key
 * would otherwise do in parallel, spreading it over more than a limit's interval), then a pause that gives the rate
 * limit its tokens back: the burst that follows reaches the limit at once.
 */
async function warmUp(instances: ServiceApp[], sub: TestSubscriber): Promise<void> {
  for (const instance of instances) expect((await instance.inject({ method: "GET", url: "/ping", headers: sub.headers })).statusCode).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 250));
}

describe("per-second limit of paid plans", () => {
  it("holds for the service as a whole: two instances share one GCRA bucket and one monthly counter", async () => {
    const limited = await createTestPlatform({ now: () => NOW, env: { RATE_LIMITS: "on" } });
    const instances = [await buildProbeApp(limited.deps), await buildProbeApp(limited.deps)];
    const sub = await limited.subscribe("text-toolkit", "PRO");
    await warmUp(instances, sub);
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => instances[i % 2].inject({ method: "GET", url: "/ping", headers: sub.headers })));
    expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(20);
    expect(responses.filter((r) => r.statusCode === 429).map((r) => r.json().error.code)).toEqual(Array(10).fill("RATE_LIMITED"));
    const remaining = responses.filter((r) => r.statusCode === 200).map((r) => Number(r.headers["x-ratelimit-requests-remaining"]));
    expect(remaining.sort((a, b) => b - a)).toEqual(Array.from({ length: 20 }, (_, i) => 10_000 - 3 - i));
    for (const app of instances) await app.close();
    const { rows } = await limited.deps.db.query<{ n: number }>("SELECT sum(requests)::bigint AS n FROM usage_counts WHERE account_id = $1", [sub.accountId]);
    expect(Number(rows[0].n)).toBe(22);
    await limited.close();
  });
});

describe("what is billed", () => {
  const remaining = async (sub: TestSubscriber) => Number((await ping(sub)).headers["x-ratelimit-requests-remaining"]);

  it("does not count the platform's own failures (500, 503 MODEL_UNAVAILABLE or UNAVAILABLE) on BASIC", async () => {
    const sub = await platform.subscribe("text-toolkit", "BASIC");
    expect(await remaining(sub)).toBe(99);
    const failures = [
      await app.inject({ method: "GET", url: "/boom", headers: sub.headers }),
      await app.inject({ method: "GET", url: "/fail/MODEL_UNAVAILABLE", headers: sub.headers }),
      await app.inject({ method: "GET", url: "/fail/UNAVAILABLE", headers: sub.headers }),
    ];
    expect(failures.map((r) => [r.statusCode, r.json().error.code])).toEqual([
      [500, "INTERNAL_ERROR"],
      [503, "MODEL_UNAVAILABLE"],
      [503, "UNAVAILABLE"],
    ]);
    expect(await remaining(sub)).toBe(98);
    expect(await recordedRequests(sub.accountId)).toBe(2);
  });

  it("counts a 502 or 504 from the subscriber's own target, on BASIC and on a paid plan", async () => {
    for (const plan of ["BASIC", "PRO"] as const) {
      const sub = await platform.subscribe("text-toolkit", plan);
      const upstream = await app.inject({ method: "GET", url: "/fail/UPSTREAM_ERROR", headers: sub.headers });
      const timeout = await app.inject({ method: "GET", url: "/fail/UPSTREAM_TIMEOUT", headers: sub.headers });
      expect([upstream.statusCode, timeout.statusCode]).toEqual([502, 504]);
      expect(await remaining(sub)).toBe(PLANS[plan].monthlyRequests - 3);
      await app.usage.flush();
      const report = await usageReport(platform.deps.db, sub.accountId, "2026-11");
      expect(report[0].endpoints).toEqual([
        { endpoint: "GET /fail/:code", requests: 2 },
        { endpoint: "GET /ping", requests: 1 },
      ]);
    }
  });

  it("does not bill a paid plan's 500 either, and its counter gives the request back", async () => {
    const sub = await platform.subscribe("text-toolkit", "MEGA");
    await ping(sub);
    await app.inject({ method: "GET", url: "/boom", headers: sub.headers });
    expect(await remaining(sub)).toBe(1_000_000 - 2);
    expect(await recordedRequests(sub.accountId)).toBe(2);
  });
});

describe("a hard limit when Redis loses or misstates its counter", () => {
  it("serves BASIC exactly 100 when the counter vanishes in the middle of a burst over two instances", async () => {
    const instances = [app, await buildProbeApp(platform.deps)];
    const sub = await platform.subscribe("text-toolkit", "BASIC");
    const served = async (count: number) => {
      const statuses = await Promise.all(
        Array.from({ length: count }, (_, i) => instances[i % 2].inject({ method: "GET", url: "/ping", headers: sub.headers }).then((r) => r.statusCode)),
      );
      return statuses.filter((s) => s === 200).length;
    };
    let total = await served(90);
    await platform.deps.kv.del(`quota:${sub.accountId}:text-toolkit:2026-11`);
    const burst = served(150);
    await platform.deps.kv.del(`quota:${sub.accountId}:text-toolkit:2026-11`);
    total += await burst;
    expect(total).toBe(100);
    expect(await recordedRequests(sub.accountId)).toBe(100);
    await instances[1].close();
  });

  it("checks PostgreSQL before believing a counter that says the month is used up", async () => {
    const sub = await platform.subscribe("text-toolkit", "BASIC");
    for (let i = 0; i < 50; i++) await ping(sub);
    // As a crash between the two counts, many times over, would leave it.
    await platform.deps.kv.set(`quota:${sub.accountId}:text-toolkit:2026-11`, "100", 3600);
    const res = await ping(sub);
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-ratelimit-requests-remaining"]).toBe("49");
  });
});

describe("when Redis fails", () => {
  it("keeps admitting, counting in the instance and exactly in PostgreSQL for BASIC", async () => {
    const own = await createTestPlatform({ now: () => NOW, env: { RATE_LIMITS: "on", LOG_LEVEL: "warn" } });
    const broken = { ...own.deps.kv, admitRequest: async () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:6379")) };
    const lines: string[] = [];
    const ownApp = await buildProbeApp({ ...own.deps, kv: broken, logStream: { write: (line) => lines.push(line) } });
    const paid = await own.subscribe("text-toolkit", "PRO");
    const free = await own.subscribe("text-toolkit", "BASIC");
    await warmUp([ownApp], paid);
    const paidAnswers = await Promise.all(Array.from({ length: 25 }, () => ownApp.inject({ method: "GET", url: "/ping", headers: paid.headers })));
    expect(paidAnswers.filter((r) => r.statusCode === 200)).toHaveLength(20);
    expect(paidAnswers.find((r) => r.statusCode === 200)!.headers["x-ratelimit-requests-limit"]).toBe("10000");
    await own.deps.db.query(
      "INSERT INTO usage_counts (month, account_id, key_id, service, endpoint, requests) VALUES ('2026-11', $1, $2, 'text-toolkit', 'GET /ping', 98)",
      [free.accountId, free.keyId],
    );
    const freeAnswers = await Promise.all(Array.from({ length: 5 }, () => ownApp.inject({ method: "GET", url: "/ping", headers: free.headers })));
    expect(freeAnswers.map((r) => r.statusCode).sort()).toEqual([200, 200, 429, 429, 429]);
    expect(lines.filter((line) => line.includes("shared counter store (Redis) failed"))).toHaveLength(1);
    await ownApp.close();
    await own.close();
  });
});

describe("durability", () => {
  it("counts a paid request in Redis's usage log as it is admitted: an instance that dies leaves it for another to move", async () => {
    const own = await createTestPlatform({ now: () => NOW });
    const dying = await buildProbeApp(own.deps);
    const survivor = await buildProbeApp(own.deps);
    const sub = await own.subscribe("text-toolkit", "PRO");
    await Promise.all(Array.from({ length: 7 }, () => dying.inject({ method: "GET", url: "/ping", headers: sub.headers })));
    const rows = async () => (await own.deps.db.query<{ requests: number }>("SELECT requests FROM usage_counts WHERE account_id = $1", [sub.accountId])).rows;
    expect(await rows()).toEqual([]);
    // The first instance is never closed (as if killed): the other drains the shared log.
    await survivor.usage.flush();
    expect((await rows()).map((r) => r.requests)).toEqual([7]);
    await survivor.close();
    await own.close();
  });

  it("moves the usage log to PostgreSQL every METERING_FLUSH_MS", async () => {
    const own = await createTestPlatform({ now: () => NOW, env: { METERING_FLUSH_MS: "50" } });
    const ownApp = await buildProbeApp(own.deps);
    const sub = await own.subscribe("text-toolkit", "MEGA");
    for (let i = 0; i < 3; i++) await ownApp.inject({ method: "GET", url: "/ping", headers: sub.headers });
    let recorded = 0;
    for (let i = 0; i < 100 && recorded < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { rows } = await own.deps.db.query<{ n: number }>("SELECT coalesce(sum(requests), 0)::int AS n FROM usage_counts WHERE account_id = $1", [
        sub.accountId,
      ]);
      recorded = rows[0].n;
    }
    expect(recorded).toBe(3);
    await ownApp.close();
    await own.close();
  });

  it("applies a batch whose taker died after writing it exactly once", async () => {
    const own = await createTestPlatform({ now: () => NOW });
    const ownApp = await buildProbeApp(own.deps);
    const sub = await own.subscribe("text-toolkit", "PRO");
    for (let i = 0; i < 4; i++) await ownApp.inject({ method: "GET", url: "/ping", headers: sub.headers });
    // A taker that wrote the batch and died before letting go of it: the batch is in the ledger, its id in PostgreSQL.
    const fields = await own.deps.kv.takeHash("usage:log", "usage:taken:1-dead", "usage:ledger", 1);
    expect(Object.values(fields!)).toEqual(["4"]);
    await applyUsageBatch(own.deps.db, "1-dead", [
      { key: { month: "2026-11", accountId: sub.accountId, keyId: sub.keyId, service: "text-toolkit", endpoint: "GET /ping" }, requests: 4 },
    ]);
    await ownApp.usage.flush();
    const { rows } = await own.deps.db.query<{ n: number }>("SELECT sum(requests)::int AS n FROM usage_counts WHERE account_id = $1", [sub.accountId]);
    expect(rows[0].n).toBe(4);
    expect(await own.deps.kv.takenBefore("usage:ledger", Date.now())).toEqual([]);
    await ownApp.close();
    await own.close();
  });
});
