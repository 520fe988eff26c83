import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplicas, type EdgeAnswer, type ReplicaSet } from "../src/index.js";

/**
 * A rolling restart through production's nginx configuration: a burst of reads (GET) and writes (POST) while one of
 * three replicas is stopped. nginx sends a request on to the next replica when the connection is refused or dropped;
 * a POST only when nothing of it reached the replica. A replica taken out of the rotation before it stops (what
 * Kubernetes does during the preStop pause) fails nothing.
 */
let set: ReplicaSet;
let headers: Record<string, string>;

// With REPORT_COUNTS=1 each scenario prints its counts (how docs/SCALING.md's figures were taken).
const report = (scenario: string, counts: object) => {
  if (process.env.REPORT_COUNTS === "1") console.log(JSON.stringify({ scenario, ...counts }));
};

beforeAll(async () => {
  set = await startReplicas("text-toolkit", { replicas: 3, startTimeoutMs: 240_000 });
  headers = (await set.platform.subscribe("text-toolkit", "MEGA")).headers;
}, 300_000);
afterAll(async () => set?.close());

interface Outcome {
  method: "GET" | "POST";
  status: number | "no answer";
}

/** `concurrency` loops, each alternating a GET and a POST, for `durationMs`; `during` runs 800 ms in. */
async function burst<T>(concurrency: number, durationMs: number, during: () => Promise<T>): Promise<{ outcomes: Outcome[]; duringResult: T }> {
  const outcomes: Outcome[] = [];
  const started = Date.now();
  const loop = async (lane: number) => {
    for (let n = lane; Date.now() - started < durationMs; n += concurrency) {
      const method = n % 2 === 0 ? "GET" : "POST";
      const request = method === "GET" ? { path: "/uuid", headers } : { method, path: "/hash", headers, body: { text: `t${n}`, algorithm: "sha256" } };
      await set.request(request).then(
        (answer: EdgeAnswer) => outcomes.push({ method, status: answer.status }),
        () => outcomes.push({ method, status: "no answer" }),
      );
    }
  };
  const stopping = new Promise((resolve) => setTimeout(resolve, 800)).then(during);
  await Promise.all(Array.from({ length: concurrency }, (_, lane) => loop(lane)));
  return { outcomes, duringResult: await stopping };
}

const failures = (outcomes: Outcome[]) => outcomes.filter((outcome) => outcome.status !== 200);

describe("rolling restart behind nginx", () => {
  it("fails no GET and no POST when a replica leaves the rotation, is stopped (SIGTERM) mid-burst and started again", { timeout: 120_000 }, async () => {
    const { outcomes, duringResult: exit } = await burst(12, 2_500, () => set.drainAndStop(1));
    expect(exit).toEqual({ code: 0, signal: null });
    expect(failures(outcomes)).toEqual([]);
    report("out of rotation, then SIGTERM mid-burst", { sent: outcomes.length, served: outcomes.length - failures(outcomes).length, failed: 0 });
    await set.start(1);
    expect((await set.request({ path: "/uuid", headers, replica: 1 })).status).toBe(200);
  });

  it("fails no GET, and at most the POSTs the kernel had queued, when a replica still in rotation gets SIGTERM", { timeout: 120_000 }, async () => {
    const concurrency = 12;
    const { outcomes, duringResult: exit } = await burst(concurrency, 2_500, () => set.stop(1, "SIGTERM"));
    expect(exit).toEqual({ code: 0, signal: null });
    const failed = failures(outcomes);
    // Connections the kernel accepted and the process had not yet taken are reset when its listener closes; nginx has
    // sent their requests, so it repeats a GET elsewhere and answers a POST with 503 (docs/SCALING.md).
    expect(failed.filter((outcome) => outcome.method === "GET")).toEqual([]);
    expect(failed.length).toBeLessThanOrEqual(concurrency / 2);
    for (const outcome of failed) expect(outcome.status).toBe(503);
    report("SIGTERM in rotation mid-burst", { sent: outcomes.length, served: outcomes.length - failed.length, failed_posts: failed.length });
    await set.start(1);
  });

  it("fails at most the POSTs in flight on a replica killed (SIGKILL) mid-burst, and no GET", { timeout: 120_000 }, async () => {
    const concurrency = 12;
    const { outcomes, duringResult: exit } = await burst(concurrency, 2_500, () => set.stop(2, "SIGKILL"));
    expect(exit.signal).toBe("SIGKILL");
    const failed = failures(outcomes);
    // A GET the dead replica held is sent again to another; a POST it held may have acted, so nginx answers 503.
    expect(failed.filter((outcome) => outcome.method === "GET")).toEqual([]);
    expect(failed.length).toBeLessThanOrEqual(concurrency / 2);
    for (const outcome of failed) expect(outcome.status).toBe(503);
    report("SIGKILL mid-burst, GET and POST", {
      sent: outcomes.length,
      served: outcomes.length - failed.length,
      failed_posts: failed.length,
      in_flight_bound: concurrency / 2,
    });
    await set.start(2);
  });
});
