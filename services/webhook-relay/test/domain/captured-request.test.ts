import { describe, expect, it } from "vitest";
import { bodyEncoding, headerEntries, hookTarget, parseQueryString, renderBody } from "../../src/domain/captured-request.js";

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
