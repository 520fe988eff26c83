import { describe, expect, it } from "vitest";
import { headerEntries } from "../../src/domain/captured-request.js";
import { destinationUrl, forwardableHeaders, headersForFetch } from "../../src/domain/forwarding.js";

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
