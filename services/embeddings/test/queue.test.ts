import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddings, type Harness } from "./support/service.js";

let h: Harness;
beforeAll(async () => {
  h = await startEmbeddings({ maxQueuedTexts: 100, cacheBytes: 0 });
}, 120_000);
afterAll(() => h?.started.close());

describe("a full queue", () => {
  it("refuses more texts than it may hold with 503 UNAVAILABLE and Retry-After, and serves again once drained", async () => {
    const long = Array.from({ length: 100 }, (_, i) => `${i} ${"the quick brown fox jumps over the lazy dog ".repeat(3)}`);
    const filling = h.post("/embed", { input: long });
    // Let the first request reach the queue before the second arrives.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await h.post("/embed", { input: "one more text" });
    expect(refused.statusCode).toBe(503);
    expect(refused.json().error.code).toBe("UNAVAILABLE");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect((await filling).statusCode).toBe(200);
    expect((await h.post("/embed", { input: "one more text" })).statusCode).toBe(200);
  }, 300_000);
});
