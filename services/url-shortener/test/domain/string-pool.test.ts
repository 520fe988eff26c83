import { describe, expect, it } from "vitest";
import { StringPool } from "../../src/domain/string-pool.js";

describe("StringPool", () => {
  it("holds one entry per distinct string and starts afresh when full", () => {
    const pool = new StringPool(2);
    expect(pool.intern(["Mozilla", "/5.0"].join(""))).toBe("Mozilla/5.0");
    expect(pool.intern("Mozilla/5.0")).toBe("Mozilla/5.0");
    expect(pool.size).toBe(1);
    pool.intern("b");
    expect(pool.size).toBe(2);
    expect(pool.intern("c")).toBe("c"); // full: it starts again with "c"
    expect(pool.size).toBe(1);
  });
});
