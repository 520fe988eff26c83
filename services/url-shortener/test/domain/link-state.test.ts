import { describe, expect, it } from "vitest";
import { linkState } from "../../src/domain/link-state.js";

describe("link state", () => {
  const now = new Date("2026-06-01T00:00:00Z");
  it("orders deleted, expired, click limit", () => {
    const base = { deletedAt: null, expiresAt: null, maxClicks: null, clicks: 0 };
    expect(linkState(base, now)).toBe("active");
    expect(linkState({ ...base, maxClicks: 2, clicks: 1 }, now)).toBe("active");
    expect(linkState({ ...base, maxClicks: 2, clicks: 2 }, now)).toBe("click_limit_reached");
    expect(linkState({ ...base, expiresAt: now, maxClicks: 2, clicks: 2 }, now)).toBe("expired");
    expect(linkState({ ...base, expiresAt: new Date(now.getTime() + 1) }, now)).toBe("active");
    expect(linkState({ ...base, deletedAt: now, expiresAt: now }, now)).toBe("deleted");
  });
});
