import { describe, expect, it } from "vitest";
import { createTestPlatform } from "@apiplat/testing";
import { buildProbeApp } from "./support.js";

describe("embedded mode (no DATABASE_URL, no REDIS_URL)", () => {
  it("starts on PGlite and the in-process store, authenticates, meters and records usage", async () => {
    const platform = await createTestPlatform({ embedded: true });
    expect(platform.deps.db.kind).toBe("embedded");
    expect(platform.deps.kv.kind).toBe("memory");
    const app = await buildProbeApp(platform.deps);
    const sub = await platform.subscribe("text-toolkit", "BASIC");
    const statuses = await Promise.all(Array.from({ length: 105 }, () => app.inject({ method: "GET", url: "/ping", headers: sub.headers }).then((r) => r.statusCode)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    await app.close();
    const { rows } = await platform.deps.db.query<{ n: number }>("SELECT sum(requests)::bigint AS n FROM usage_counts");
    expect(rows[0].n).toBe(100);
    await platform.close();
  }, 180_000);
});
