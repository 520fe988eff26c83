import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announceGrantChange } from "@apiplat/gateway-auth";
import { flood, startReplicas, type ReplicaSet, type TestSubscriber } from "@apiplat/testing";

/**
 * The metering path on three replicas of text-toolkit behind a real nginx (RATE_LIMITS off: the per-second limits have
 * their own file): usage totals, BASIC's hard limit when Redis loses its counter, revocation, SIGTERM and SIGKILL.
 */
let set: ReplicaSet;

// With REPORT_COUNTS=1 each scenario prints its counts (how docs/PERFORMANCE.md's figures were taken).
const report = (scenario: string, counts: object) => {
  if (process.env.REPORT_COUNTS === "1") console.log(JSON.stringify({ scenario, ...counts }));
};

beforeAll(async () => {
  // A key's grant is cached for a minute here: only the announcement can make a revocation show within a second.
  set = await startReplicas("text-toolkit", { replicas: 3, env: { AUTH_CACHE_TTL_MS: "60000" } });
});
afterAll(async () => set?.close());

const month = () => new Date().toISOString().slice(0, 7);

async function billed(accountId: string): Promise<Record<string, number>> {
  const { rows } = await set.platform.deps.db.query<{ endpoint: string; requests: number }>(
    "SELECT endpoint, sum(requests)::bigint AS requests FROM usage_counts WHERE account_id = $1 GROUP BY endpoint",
    [accountId],
  );
  return Object.fromEntries(rows.map((r) => [r.endpoint, Number(r.requests)]));
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0);

/**
 * What PostgreSQL holds once the usage log has been moved: the replicas drain it every 200 ms, and a batch a killed
 * replica held is taken over after 5 s. Waits until `done` holds, then for two more drains to change nothing.
 */
async function billedOnceDrained(accountId: string, done: (counts: Record<string, number>) => boolean): Promise<Record<string, number>> {
  const deadline = Date.now() + 20_000;
  let counts = await billed(accountId);
  while (!done(counts) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    counts = await billed(accountId);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  return billed(accountId);
}

describe("three replicas behind nginx", () => {
  it("bills exactly what was sent, with one monthly counter whichever replica answers", async () => {
    const sub = await set.platform.subscribe("text-toolkit", "MEGA");
    const remaining: number[] = [];
    const result = await flood(
      async (n) => {
        const answer =
          n % 2 === 0
            ? await set.request({ path: "/uuid", headers: sub.headers })
            : await set.request({ method: "POST", path: "/hash", headers: sub.headers, body: { text: `t${n}`, algorithm: "sha256" } });
        remaining.push(Number(answer.headers["x-ratelimit-requests-remaining"]));
        return answer;
      },
      { concurrency: 24, count: 600 },
    );
    expect(result).toMatchObject({ sent: 600, statuses: { 200: 600 }, failed: 0 });
    expect(await billedOnceDrained(sub.accountId, (counts) => total(counts) >= 600)).toEqual({ "GET /uuid": 300, "POST /hash": 300 });
    expect(new Set(remaining).size).toBe(600);
    expect(Math.min(...remaining)).toBe(1_000_000 - 600);
    const served = set.edge.accessLog().filter((line) => line.includes("/uuid") || line.includes("/hash"));
    for (const replica of set.replicas) expect(served.some((line) => line.includes(`127.0.0.1:${replica.port}`))).toBe(true);
    report("usage totals", { sent: result.sent, served: result.statuses[200], billed: total(await billed(sub.accountId)) });
  });

  it("serves BASIC exactly 100 over three replicas, though Redis loses the month's counter twice", async () => {
    const sub = await set.platform.subscribe("text-toolkit", "BASIC");
    const quotaKey = `quota:${sub.accountId}:text-toolkit:${month()}`;
    const first = await flood(() => set.request({ path: "/uuid", headers: sub.headers }), { concurrency: 10, count: 90 });
    expect(first.statuses).toEqual({ 200: 90 });
    await set.platform.deps.kv.del(quotaKey);
    const rest = await flood(
      async (n) => {
        if (n === 150) await set.platform.deps.kv.del(quotaKey);
        return set.request({ path: "/uuid", headers: sub.headers });
      },
      { concurrency: 30, count: 300 },
    );
    expect(rest.statuses).toEqual({ 200: 10, 429: 290 });
    expect(await billed(sub.accountId)).toEqual({ "GET /uuid": 100 });
    report("BASIC monthly limit, counter lost twice", { sent: 390, served: 90 + rest.statuses[200], expected: 100 });
  });

  it("refuses a revoked key on every replica within a second of the announcement", async () => {
    const sub: TestSubscriber = await set.platform.subscribe("text-toolkit", "PRO");
    for (const replica of set.replicas) expect((await set.request({ path: "/uuid", headers: sub.headers, replica: replica.index })).status).toBe(200);
    await set.platform.accounts.revokeKey(sub.keyId);
    const revokedAt = Date.now();
    await announceGrantChange(set.platform.deps.kv, { keyId: sub.keyId });
    const delays = await Promise.all(
      set.replicas.map(async (replica) => {
        for (;;) {
          const answer = await set.request({ path: "/uuid", headers: sub.headers, replica: replica.index });
          if (answer.status === 403) return Date.now() - revokedAt;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }),
    );
    for (const delay of delays) expect(delay).toBeLessThan(1_000);
    expect((await set.request({ path: "/uuid", headers: sub.headers })).json().error.code).toBe("INVALID_API_KEY");
    report("revocation", { delays_ms: delays });
  });

  it("loses no request and no usage when a replica is stopped (SIGTERM) in the middle of a burst", { timeout: 90_000 }, async () => {
    const sub = await set.platform.subscribe("text-toolkit", "PRO");
    const stopping = new Promise((resolve) => setTimeout(resolve, 800)).then(() => set.stop(1, "SIGTERM"));
    const result = await flood(() => set.request({ path: "/uuid", headers: sub.headers }), { concurrency: 16, durationMs: 2_500 });
    const exit = await stopping;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(result.failed).toBe(0);
    expect(result.statuses).toEqual({ 200: result.sent });
    const billedCount = total(await billedOnceDrained(sub.accountId, (counts) => total(counts) >= result.sent));
    expect(billedCount).toBe(result.sent);
    report("SIGTERM mid-burst", { sent: result.sent, served: result.statuses[200], billed: billedCount });
    await set.start(1);
  });

  it("loses nothing answered when a replica is killed (SIGKILL) mid-burst; what it was serving may be billed once more", { timeout: 60_000 }, async () => {
    const sub = await set.platform.subscribe("text-toolkit", "PRO");
    const concurrency = 16;
    const killing = new Promise((resolve) => setTimeout(resolve, 800)).then(() => set.stop(2, "SIGKILL"));
    const result = await flood(() => set.request({ path: "/uuid", headers: sub.headers }), { concurrency, durationMs: 2_500 });
    expect((await killing).signal).toBe("SIGKILL");
    const served = result.statuses[200] ?? 0;
    const billedCount = total(await billedOnceDrained(sub.accountId, (counts) => total(counts) >= served));
    // nginx retries a GET the dead replica was serving on another one: most of them are still answered.
    expect(served).toBeGreaterThanOrEqual(result.sent - concurrency);
    expect(billedCount).toBeGreaterThanOrEqual(served);
    expect(billedCount - served).toBeLessThanOrEqual(concurrency);
    report("SIGKILL mid-burst", { sent: result.sent, served, not_served: result.sent - served, billed: billedCount });
  });
});
