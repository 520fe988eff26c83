import { describe, expect, it } from "vitest";
import { TtlCache } from "../src/index.js";

describe("TtlCache", () => {
  it("keeps a value for its lifetime, then loads it again", async () => {
    let now = 0;
    const cache = new TtlCache<string>(1_000, 10, () => now);
    expect(await cache.get("k", async () => "first")).toBe("first");
    now = 999;
    expect(cache.peek("k")).toBe("first");
    now = 1_000;
    expect(cache.peek("k")).toBeUndefined();
    expect(await cache.get("k", async () => "second")).toBe("second");
  });

  it("forgets what an invalidation names, and does not keep a load that began before it", async () => {
    const cache = new TtlCache<{ account: string }>(60_000, 10);
    await cache.get("a", async () => ({ account: "x" }));
    await cache.get("b", async () => ({ account: "y" }));
    let finish!: (value: { account: string }) => void;
    const stale = cache.get("c", () => new Promise((resolve) => (finish = resolve)));
    cache.deleteWhere((value) => value.account === "x");
    finish({ account: "x" });
    expect(await stale).toEqual({ account: "x" });
    expect([cache.peek("a"), cache.peek("b"), cache.peek("c")]).toEqual([undefined, { account: "y" }, undefined]);
  });
});
