import { describe, expect, it } from "vitest";
import { UtcDays, visitorFingerprint } from "../../src/domain/visitor.js";

describe("visitor fingerprints", () => {
  it("depend on salt, link, address and user agent, and never contain the address", () => {
    const salt = Buffer.alloc(32, 1);
    const a = visitorFingerprint(salt, 1, "81.2.69.142", "ua");
    expect(a).toHaveLength(22);
    expect(a).not.toContain("81.2.69.142");
    expect(visitorFingerprint(salt, 1, "81.2.69.142", "ua")).toBe(a);
    expect(visitorFingerprint(salt, 2, "81.2.69.142", "ua")).not.toBe(a);
    expect(visitorFingerprint(Buffer.alloc(32, 2), 1, "81.2.69.142", "ua")).not.toBe(a);
  });
});

describe("UtcDays", () => {
  it("gives the UTC day of epoch milliseconds across midnight, both ways", () => {
    const days = new UtcDays();
    const midnight = Date.parse("2026-03-01T00:00:00Z");
    expect(days.of(midnight - 1)).toBe("2026-02-28");
    expect(days.of(midnight)).toBe("2026-03-01");
    expect(days.of(midnight + 86_399_999)).toBe("2026-03-01");
    expect(days.of(midnight + 86_400_000)).toBe("2026-03-02");
    expect(days.of(midnight - 1)).toBe("2026-02-28");
    expect(days.of(0)).toBe("1970-01-01");
  });
});
