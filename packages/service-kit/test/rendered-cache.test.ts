import { afterEach, describe, expect, it, vi } from "vitest";
import { RenderedCache } from "../src/http-cache.js";

afterEach(() => vi.useRealTimers());

describe("RenderedCache", () => {
  it("renders once and then answers the same JSON text", async () => {
    const cache = new RenderedCache();
    let renders = 0;
    const render = async () => ({ n: ++renders });
    expect(await cache.render("a", render)).toBe('{"n":1}');
    expect(await cache.render("a", render)).toBe('{"n":1}');
    expect(renders).toBe(1);
  });

  it("evicts the least recently used answer beyond its character and entry bounds", () => {
    const cache = new RenderedCache({ maxChars: 10, maxEntries: 3 });
    cache.set("a", "aaaa");
    cache.set("b", "bbbb");
    expect(cache.get("a")).toBe("aaaa"); // a is now the most recently used
    cache.set("c", "cc"); // 10 characters: still fits
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual(["aaaa", "bbbb", "cc"]);
    cache.set("d", "d"); // 11 characters and 4 entries: a, the least recently used, goes
    expect([cache.get("a"), cache.get("b"), cache.get("c"), cache.get("d")]).toEqual([undefined, "bbbb", "cc", "d"]);
  });

  it("bounds answers kept as bytes by their bytes, not their characters", () => {
    const cache = new RenderedCache<Buffer>({ maxChars: 8 });
    const euros = Buffer.from("€€"); // 2 characters, 6 bytes
    cache.set("a", euros);
    cache.set("b", Buffer.from("ab")); // 8 bytes: still fits
    expect([cache.get("a"), cache.get("b")]).toEqual([euros, Buffer.from("ab")]);
    cache.set("c", Buffer.from("c")); // 9 bytes: a, the least recently used, goes
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([undefined, Buffer.from("ab"), Buffer.from("c")]);
  });

  it("does not keep an answer longer than maxEntryChars, and forgets answers older than ttlMs", () => {
    vi.useFakeTimers({ now: 0 });
    const cache = new RenderedCache({ maxEntryChars: 3, ttlMs: 1_000 });
    cache.set("long", "1234");
    expect(cache.get("long")).toBeUndefined();
    cache.set("short", "123");
    vi.setSystemTime(999);
    expect(cache.get("short")).toBe("123");
    vi.setSystemTime(1_000);
    expect(cache.get("short")).toBeUndefined();
  });

  it("tells how long ago an answer was kept, and forgets everything on clear()", () => {
    vi.useFakeTimers({ now: 5_000 });
    const cache = new RenderedCache({ ttlMs: 60_000 });
    cache.set("a", "aa");
    vi.setSystemTime(7_500);
    expect(cache.getWithAge("a")).toEqual({ json: "aa", ageMs: 2_500 });
    cache.clear();
    expect(cache.getWithAge("a")).toBeUndefined();
    cache.set("b", "b".repeat(10));
    expect(cache.get("b")).toBe("bbbbbbbbbb");
  });
});
