import { describe, expect, it } from "vitest";

describe("client IP", () => {
  it("shows IPv4-mapped IPv6 addresses as IPv4", async () => {
    const { displayIp } = await import("../../src/domain/client-ip.js");
    expect(displayIp("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(displayIp("2001:db8::1")).toBe("2001:db8::1");
    expect(displayIp("not an address")).toBe("not an address");
  });
});
