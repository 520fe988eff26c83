import { describe, expect, it } from "vitest";
import { LruCache } from "../../src/domain/lru.js";

describe("LruCache", () => {
  it("evicts the least recently used entry and expires by time", () => {
    let clock = 0;
    const cache = new LruCache<number>(2, () => clock);
    cache.set("a", 1, 100);
    cache.set("b", 2, 100);
    cache.get("a");
    cache.set("c", 3, 100);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    clock = 100;
    expect(cache.get("a")).toBeUndefined();
  });

  it("keeps an entry that is used while many others come and go, within its size", () => {
    const cache = new LruCache<number>(100);
    cache.set("hot", 0, 60_000);
    for (let i = 0; i < 10_000; i++) {
      cache.set(`cold-${i}`, i, 60_000);
      if (i % 10 === 0) expect(cache.get("hot")).toBe(0);
    }
    expect(cache.size).toBe(100);
    expect(cache.get("cold-9999")).toBe(9999);
    expect(cache.get("cold-9899")).toBeUndefined();
  });
});
