import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform, type TestSubscriber } from "@apiplat/testing";
import { invoice, usageReport } from "@apiplat/metering";
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
  const { rows } = await platform.deps.db.query<{ n: number }>("SELECT coalesce(sum(requests), 0)::bigint AS n FROM usage_counts WHERE account_id = $1", [accountId]);
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
    const responses = await Promise.all(Array.from({ length: 8 }, () => limitedApp.inject({ method: "GET", url: "/ping", headers: sub.headers })));
    const ok = responses.filter((r) => r.statusCode === 200);
    const refused = responses.filter((r) => r.statusCode === 429);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(3);
    for (const r of refused) {
      expect(r.json().error.code).toBe("RATE_LIMITED");
      expect(r.headers["retry-after"]).toBe("1");
    }
    await limitedApp.usage.flush();
    const { rows } = await limited.deps.db.query<{ n: number }>("SELECT sum(requests)::bigint AS n FROM usage_counts WHERE account_id = $1", [sub.accountId]);
    expect(Number(rows[0].n)).toBe(5);
  });
});

describe("per-second limit of paid plans", () => {
  it("holds per service instance, and the monthly count reaches other instances (synced every 250 ms)", async () => {
    const limited = await createTestPlatform({ now: () => NOW, env: { RATE_LIMITS: "on" } });
    const first = await buildProbeApp(limited.deps);
    const second = await buildProbeApp(limited.deps);
    const sub = await limited.subscribe("text-toolkit", "PRO");
    const statuses = await Promise.all(Array.from({ length: 25 }, () => first.inject({ method: "GET", url: "/ping", headers: sub.headers }).then((r) => r.statusCode)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    await new Promise((r) => setTimeout(r, 1_000));
    const other = await second.inject({ method: "GET", url: "/ping", headers: sub.headers });
    expect(other.headers["x-ratelimit-requests-remaining"]).toBe(String(10_000 - 21));
    await first.close();
    await second.close();
    const { rows } = await limited.deps.db.query<{ n: number }>("SELECT sum(requests)::bigint AS n FROM usage_counts WHERE account_id = $1", [sub.accountId]);
    expect(Number(rows[0].n)).toBe(21);
    await limited.close();
  });
});

describe("durability", () => {
  it("flushes buffered usage on a clean close", async () => {
    const own = await createTestPlatform({ now: () => NOW });
    const ownApp = await buildProbeApp(own.deps);
    const sub = await own.subscribe("text-toolkit", "PRO");
    for (let i = 0; i < 7; i++) await ownApp.inject({ method: "GET", url: "/ping", headers: sub.headers });
    const before = await own.deps.db.query("SELECT * FROM usage_counts WHERE account_id = $1", [sub.accountId]);
    expect(before.rows).toHaveLength(0);
    await ownApp.close();
    const after = await own.deps.db.query<{ requests: number }>("SELECT requests FROM usage_counts WHERE account_id = $1", [sub.accountId]);
    expect(after.rows.map((r) => r.requests)).toEqual([7]);
    await own.close();
  });
});
