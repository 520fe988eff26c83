import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flood, startReplicas, type ReplicaSet, type TestSubscriber } from "@apiplat/testing";

/**
 * Per-second limits on three replicas of text-toolkit behind a real nginx: one GCRA bucket per account and service in
 * Redis, whichever replica a request reaches (with per-process counters, three replicas served three times the rate).
 */
let set: ReplicaSet;

const report = (scenario: string, counts: object) => {
  if (process.env.REPORT_COUNTS === "1") console.log(JSON.stringify({ scenario, ...counts }));
};

beforeAll(async () => {
  set = await startReplicas("text-toolkit", { replicas: 3, env: { RATE_LIMITS: "on" } });
});
afterAll(async () => set?.close());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A first request on each replica (the key's grant and the month's counter loaded), then time for the bucket to refill. */
async function warmUp(sub: TestSubscriber, refillMs: number): Promise<void> {
  for (const replica of set.replicas) expect((await set.request({ path: "/uuid", headers: sub.headers, replica: replica.index })).status).toBe(200);
  await pause(refillMs);
}

describe("per-second limits across three replicas", () => {
  it("lets one burst of the plan's size through, whichever replicas the requests reach (PRO: 20 of 60, plus refills)", async () => {
    const sub = await set.platform.subscribe("text-toolkit", "PRO");
    await warmUp(sub, 200);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 60 }, () => set.request({ path: "/uuid", headers: sub.headers })));
    const elapsedMs = Date.now() - started;
    const served = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    // The 60 connections through nginx reach the replicas over some milliseconds; a token comes back every 50 ms.
    const most = 20 + Math.floor(elapsedMs / 50);
    expect(served.length).toBeGreaterThanOrEqual(20);
    expect(served.length).toBeLessThanOrEqual(most);
    expect(refused).toHaveLength(60 - served.length);
    for (const answer of refused) {
      expect(answer.json().error.code).toBe("RATE_LIMITED");
      expect(answer.headers["retry-after"]).toBe("1");
    }
    // The month's counter is the same on every replica: 3 warm-up requests, then one distinct count per request.
    const remaining = served.map((a) => Number(a.headers["x-ratelimit-requests-remaining"])).sort((a, b) => b - a);
    expect(remaining).toEqual(Array.from({ length: served.length }, (_, i) => 10_000 - 4 - i));
    report("PRO burst", { sent: 60, served: served.length, expected_at_most: most, elapsed_ms: elapsedMs });
  });

  it("holds the sustained rate over a flood: the burst, then one request per interval (PRO: 20 + 20 per second)", async () => {
    const sub = await set.platform.subscribe("text-toolkit", "PRO");
    await warmUp(sub, 200);
    const result = await flood(
      async () => {
        const answer = await set.request({ path: "/uuid", headers: sub.headers });
        // Refused requests come back at once: a short pause keeps the flood from spinning the machine.
        if (answer.status === 429) await pause(5);
        return answer;
      },
      { concurrency: 8, durationMs: 2_000 },
    );
    const served = result.statuses[200] ?? 0;
    const most = 20 + Math.floor((result.elapsedMs / 1000) * 20);
    expect(result.failed).toBe(0);
    expect(served).toBeLessThanOrEqual(most);
    // And not much fewer: a refill is taken as soon as the flood's next request arrives (a slow machine loses a few).
    expect(served).toBeGreaterThanOrEqual(most - Math.ceil((most - 20) * 0.2));
    report("PRO sustained", { sent: result.sent, served, expected_at_most: most, elapsed_ms: result.elapsedMs });
  });

  it("gives BASIC 5 at once over three replicas, and its monthly headers", async () => {
    const sub = await set.platform.subscribe("text-toolkit", "BASIC");
    await warmUp(sub, 700);
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 15 }, () => set.request({ path: "/uuid", headers: sub.headers })));
    const most = 5 + Math.floor((Date.now() - started) / 200);
    const served = answers.filter((a) => a.status === 200);
    expect(served.length).toBeGreaterThanOrEqual(5);
    expect(served.length).toBeLessThanOrEqual(most);
    const remaining = served.map((a) => Number(a.headers["x-ratelimit-requests-remaining"])).sort((a, b) => b - a);
    expect(remaining).toEqual(Array.from({ length: served.length }, (_, i) => 100 - 4 - i));
    report("BASIC burst", { sent: 15, served: served.length, expected_at_most: most });
  });
});
