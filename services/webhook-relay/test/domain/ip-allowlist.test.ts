import { describe, expect, it } from "vitest";
import { isIpAllowed, normalizeAllowlistEntry } from "../../src/domain/ip-allowlist.js";

describe("IP allow-list", () => {
  it("normalizes addresses and CIDR ranges and refuses the rest", () => {
    expect(normalizeAllowlistEntry("203.0.113.7")).toBe("203.0.113.7/32");
    expect(normalizeAllowlistEntry("10.0.0.0/8")).toBe("10.0.0.0/8");
    expect(normalizeAllowlistEntry("2001:db8::/32")).toBe("2001:db8::/32");
    expect(normalizeAllowlistEntry("::1")).toBe("::1/128");
    expect(normalizeAllowlistEntry("10.0.0.0/33")).toBeNull();
    expect(normalizeAllowlistEntry("example.com")).toBeNull();
    expect(normalizeAllowlistEntry("1.2.3")).toBeNull();
  });

  it("matches IPv4, IPv6 and IPv4-mapped IPv6 senders", () => {
    const list = ["10.0.0.0/8", "2001:db8::/32"];
    expect(isIpAllowed("10.1.2.3", list)).toBe(true);
    expect(isIpAllowed("::ffff:10.1.2.3", list)).toBe(true);
    expect(isIpAllowed("11.0.0.1", list)).toBe(false);
    expect(isIpAllowed("2001:db8::1", list)).toBe(true);
    expect(isIpAllowed("2001:db9::1", list)).toBe(false);
    expect(isIpAllowed("not-an-ip", list)).toBe(false);
  });
});
