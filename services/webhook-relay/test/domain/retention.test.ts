import { describe, expect, it } from "vitest";
import { expiresAt } from "../../src/domain/retention.js";

describe("retention", () => {
  it("is 24 hours on BASIC, 30 days on PRO, 90 days on ULTRA and MEGA", () => {
    const t = new Date("2026-01-01T00:00:00.000Z");
    expect(expiresAt(t, "BASIC").toISOString()).toBe("2026-01-02T00:00:00.000Z");
    expect(expiresAt(t, "PRO").toISOString()).toBe("2026-01-31T00:00:00.000Z");
    expect(expiresAt(t, "ULTRA").toISOString()).toBe("2026-04-01T00:00:00.000Z");
    expect(expiresAt(t, "MEGA").toISOString()).toBe("2026-04-01T00:00:00.000Z");
  });
});
