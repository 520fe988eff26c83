import { describe, expect, it } from "vitest";
import { parseAddress } from "../../src/domain/addresses.js";

describe("addresses", () => {
  it("parses names, lower-cases the domain, refuses what is not an address", () => {
    expect(parseAddress('"Lovelace, Ada" <Ada@Example.COM>')).toEqual({ name: "Lovelace, Ada", address: "Ada@example.com" });
    for (const bad of [
      "a@b",
      "@example.com",
      "a b@example.com",
      "a@-x.com",
      "a..b@example.com",
      `${"x".repeat(65)}@example.com`,
      "Name <a@example.com>\r\nBcc: x",
    ]) {
      expect(parseAddress(bad), bad).toBeNull();
    }
  });
});
