import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddings, type Harness } from "./support/service.js";

let h: Harness;
beforeAll(async () => {
  h = await startEmbeddings({ maxQueuedTexts: 100, cacheBytes: 0 });
}, 120_000);
afterAll(() => h?.started.close());

const texts = (label: string) => Array.from({ length: 100 }, (_, i) => `${label} ${i}: the quick brown fox jumps over the lazy dog.`);

describe("a full queue", () => {
  it("refuses more texts than it may hold with 503 UNAVAILABLE and Retry-After, and serves again once drained", async () => {
    // Two requests of 100 texts at once against a queue of 100: whichever arrives second finds it full.
    const answers = await Promise.all([h.post("/embed", { input: texts("first") }), h.post("/embed", { input: texts("second") })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 503]);
    const refused = answers.find((a) => a.statusCode === 503)!;
    expect(refused.json().error.code).toBe("UNAVAILABLE");
    expect(refused.json().error.message).toContain("at most 100");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect((await h.post("/embed", { input: texts("third") })).statusCode).toBe(200);
  }, 300_000);
});
