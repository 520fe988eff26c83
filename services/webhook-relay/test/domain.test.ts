import { describe, expect, it } from "vitest";
import { credentialsMatch, parseBasicAuthorization, protectCredentials } from "../src/domain/basic-auth.js";
import { bodyEncoding, headerEntries, hookTarget, parseQueryString, renderBody } from "../src/domain/captured-request.js";
import { decodeCursor, encodeCursor } from "../src/domain/cursor.js";
import { destinationUrl, forwardableHeaders, headersForFetch } from "../src/domain/forwarding.js";
import { isIpAllowed, normalizeAllowlistEntry } from "../src/domain/ip-allowlist.js";
import { expiresAt } from "../src/domain/retention.js";
import { parseLastEventId, sseEvent } from "../src/domain/sse.js";

describe("retention", () => {
  it("is 24 hours on BASIC, 30 days on PRO, 90 days on ULTRA and MEGA", () => {
    const t = new Date("2026-01-01T00:00:00.000Z");
    expect(expiresAt(t, "BASIC").toISOString()).toBe("2026-01-02T00:00:00.000Z");
    expect(expiresAt(t, "PRO").toISOString()).toBe("2026-01-31T00:00:00.000Z");
    expect(expiresAt(t, "ULTRA").toISOString()).toBe("2026-04-01T00:00:00.000Z");
    expect(expiresAt(t, "MEGA").toISOString()).toBe("2026-04-01T00:00:00.000Z");
  });
});

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

describe("Basic credentials", () => {
  it("parses the header and checks against the salted digest", () => {
    const stored = protectCredentials({ username: "ops", password: "s3cr:et" }, Buffer.from("0123456789abcdef"));
    const header = `Basic ${Buffer.from("ops:s3cr:et").toString("base64")}`;
    expect(parseBasicAuthorization(header)).toEqual({ username: "ops", password: "s3cr:et" });
    expect(credentialsMatch(parseBasicAuthorization(header), stored)).toBe(true);
    expect(credentialsMatch({ username: "ops", password: "wrong" }, stored)).toBe(false);
    expect(credentialsMatch({ username: "Ops", password: "s3cr:et" }, stored)).toBe(false);
    expect(credentialsMatch(null, stored)).toBe(false);
    expect(parseBasicAuthorization("Bearer abc")).toBeNull();
    expect(parseBasicAuthorization(`Basic ${Buffer.from("nocolon").toString("base64")}`)).toBeNull();
  });
});

describe("captured request", () => {
  it("keeps repeated headers in order with their case", () => {
    expect(headerEntries(["X-A", "1", "x-a", "2", "Host", "h"])).toEqual([
      { name: "X-A", value: "1" },
      { name: "x-a", value: "2" },
      { name: "Host", value: "h" },
    ]);
  });

  it("parses repeated query keys into lists", () => {
    expect(parseQueryString("a=1&a=2&b=&c=x%20y")).toEqual({ a: ["1", "2"], b: "", c: "x y" });
    expect(parseQueryString("")).toEqual({});
  });

  it("splits the sub-path and raw query", () => {
    expect(hookTarget("/h/abc/github/push?x=1&x=2", "/h/abc")).toEqual({ path: "/github/push", queryString: "x=1&x=2" });
    expect(hookTarget("/h/abc", "/h/abc")).toEqual({ path: "/", queryString: "" });
    expect(hookTarget("/h/abc/?", "/h/abc")).toEqual({ path: "/", queryString: "" });
  });

  it("shows UTF-8 as text and anything else as base64", () => {
    expect(bodyEncoding(Buffer.from("héllo"))).toBe("text");
    expect(bodyEncoding(Buffer.from([0xff, 0xfe, 0x00]))).toBe("base64");
    expect(bodyEncoding(Buffer.from([0x61, 0x00, 0x62]))).toBe("base64");
    expect(renderBody(Buffer.from([1, 2, 255]))).toEqual({ body: "AQL/", body_encoding: "base64" });
    expect(renderBody(Buffer.alloc(0))).toEqual({ body: "", body_encoding: "text" });
  });
});

describe("forwarding", () => {
  it("drops hop-by-hop, recomputed, signature and connection-named headers", () => {
    const headers = headerEntries([
      "Host",
      "relay",
      "Connection",
      "keep-alive, X-Drop",
      "X-Drop",
      "1",
      "Keep-Alive",
      "5",
      "Transfer-Encoding",
      "chunked",
      "Content-Length",
      "3",
      "Content-Type",
      "text/plain",
      "X-Keep",
      "a",
      "X-Keep",
      "b",
      "webhook-signature",
      "v1,old",
      "Authorization",
      "Basic x",
    ]);
    expect(forwardableHeaders(headers, { dropAuthorization: false })).toEqual([
      { name: "Content-Type", value: "text/plain" },
      { name: "X-Keep", value: "a" },
      { name: "X-Keep", value: "b" },
      { name: "Authorization", value: "Basic x" },
    ]);
    expect(forwardableHeaders(headers, { dropAuthorization: true }).map((h) => h.name)).toEqual(["Content-Type", "X-Keep", "X-Keep"]);
  });

  it("drops every proxy claim about the client and every Proxy-*, TE, Trailer and Upgrade header", () => {
    const headers = headerEntries([
      "X-Forwarded-For",
      "203.0.113.7",
      "x-forwarded-host",
      "evil.test",
      "X-Forwarded-Proto",
      "https",
      "X-Forwarded-Port",
      "443",
      "Forwarded",
      "for=203.0.113.7",
      "X-Real-IP",
      "203.0.113.7",
      "Proxy-Authorization",
      "Basic x",
      "Proxy-Connection",
      "keep-alive",
      "Proxy-Anything",
      "1",
      "TE",
      "trailers",
      "Trailer",
      "X-Sum",
      "Upgrade",
      "websocket",
      "X-Forwarded",
      "kept: not a proxy header",
      "X-Keep",
      "a",
    ]);
    expect(forwardableHeaders(headers, { dropAuthorization: false })).toEqual([
      { name: "X-Forwarded", value: "kept: not a proxy header" },
      { name: "X-Keep", value: "a" },
    ]);
  });

  it("keeps repeated values as separate lines for the fetch", () => {
    expect(headersForFetch(headerEntries(["X-Keep", "a", "x-keep", "b", "X-Keep", "c", "Content-Type", "text/plain"]))).toEqual({
      "x-keep": ["a", "b", "c"],
      "content-type": "text/plain",
    });
  });

  it("appends the sub-path and the query to the destination", () => {
    expect(destinationUrl("https://x.test/in?k=1", "/github/push", "a=2")).toBe("https://x.test/in/github/push?k=1&a=2");
    expect(destinationUrl("https://x.test/in/", "/", "")).toBe("https://x.test/in/");
    expect(destinationUrl("https://x.test", "/a", "b=1&b=2")).toBe("https://x.test/a?b=1&b=2");
  });
});

describe("cursor and SSE", () => {
  it("round-trips cursors and refuses tampered ones", () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(decodeCursor("garbage")).toBeNull();
    expect(decodeCursor(Buffer.from("p0").toString("base64url"))).toBeNull();
  });

  it("formats events and parses Last-Event-ID", () => {
    expect(sseEvent("7", "request", '{"a":1}')).toBe('id: 7\nevent: request\ndata: {"a":1}\n\n');
    expect(parseLastEventId("12")).toBe(12);
    expect(parseLastEventId("x")).toBeNull();
    expect(parseLastEventId(undefined)).toBeNull();
  });
});

describe("client IP", () => {
  it("shows IPv4-mapped IPv6 addresses as IPv4", async () => {
    const { displayIp } = await import("../src/domain/client-ip.js");
    expect(displayIp("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(displayIp("2001:db8::1")).toBe("2001:db8::1");
    expect(displayIp("not an address")).toBe("not an address");
  });
});
