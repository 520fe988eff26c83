import { describe, expect, it } from "vitest";
import { normalizeUrl } from "../../src/domain/url.js";

describe("normalizeUrl", () => {
  it("canonicalizes scheme, host, default port, empty path and IDN", () => {
    expect(normalizeUrl(" HTTP://WWW.Example.com:80 ")).toEqual({ ok: true, url: "http://www.example.com/", host: "www.example.com" });
    expect(normalizeUrl("https://bücher.example/ä?q=a b")).toEqual({
      ok: true,
      url: "https://xn--bcher-kva.example/%C3%A4?q=a%20b",
      host: "xn--bcher-kva.example",
    });
  });

  it("measures the 2048 bound after normalization", () => {
    const expanding = "https://example.com/" + "ä".repeat(400);
    expect(normalizeUrl(expanding)).toEqual({ ok: false, issue: "must be at most 2048 characters once normalized" });
  });
});
