import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "../../src/domain/cursor.js";

describe("cursor", () => {
  it("round-trips cursors and refuses tampered ones", () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(decodeCursor("garbage")).toBeNull();
    expect(decodeCursor(Buffer.from("p0").toString("base64url"))).toBeNull();
  });
});
