import { describe, expect, it } from "vitest";
import { base64DecodedSize } from "../../src/domain/message.js";

describe("base64DecodedSize", () => {
  it("computes decoded bytes from the text, padding and line breaks included", () => {
    for (const n of [0, 1, 2, 3, 4, 57, 1000]) {
      const encoded = Buffer.alloc(n, 1)
        .toString("base64")
        .replace(/(.{76})/g, "$1\r\n");
      expect(base64DecodedSize(encoded)).toBe(n);
    }
    expect(base64DecodedSize("not base64!")).toBeNull();
  });
});
