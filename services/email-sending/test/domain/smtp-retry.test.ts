import { describe, expect, it } from "vitest";
import { retryDelayMs, nextAttemptAt } from "../../src/domain/smtp-retry.js";

describe("retry schedule", () => {
  it("doubles from the base, caps at an hour, and ends with the window", () => {
    expect(retryDelayMs(1, 60_000, 0.5)).toBe(60_000);
    expect(retryDelayMs(3, 60_000, 0.5)).toBe(240_000);
    expect(retryDelayMs(30, 60_000, 0.5)).toBe(3_600_000);
    expect(retryDelayMs(1, 60_000, 0)).toBe(48_000);
    const first = new Date("2026-01-01T00:00:00Z");
    expect(nextAttemptAt(first, new Date("2026-01-01T23:00:00Z"), 20, 60_000, 24 * 3_600_000, 0.5)).toEqual(new Date("2026-01-02T00:00:00Z"));
    expect(nextAttemptAt(first, new Date("2026-01-01T23:30:00Z"), 20, 60_000, 24 * 3_600_000, 0.5)).toBeNull();
  });
});
