import { describe, expect, it } from "vitest";
import { machineAgent, rewriteLinks } from "../../src/domain/tracking.js";

describe("links", () => {
  it("rewrites only absolute http(s) links, decoding entities", () => {
    const out = rewriteLinks(
      '<a href="https://a.example/?x=1&amp;y=2">A</a><a href=\'mailto:x@y.z\'>M</a><a data-no-track href="https://b.example/">B</a>',
      (u) => `T(${u})`,
    );
    expect(out).toBe('<a href="T(https://a.example/?x=1&amp;y=2)">A</a><a href=\'mailto:x@y.z\'>M</a><a data-no-track href="https://b.example/">B</a>');
    expect(machineAgent("Mozilla/5.0")).toBe("apple_mail_privacy_protection");
    expect(machineAgent("Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)")).toBeNull();
  });
});
