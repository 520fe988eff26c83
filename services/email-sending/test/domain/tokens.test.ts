import { describe, expect, it } from "vitest";
import { signToken, verifyToken } from "../../src/domain/tokens.js";

describe("tokens", () => {
  it("verify only what was signed with the same key", () => {
    const key = Buffer.alloc(32, 1);
    const token = signToken(key, { m: "msg_1" });
    expect(verifyToken(key, token)).toEqual({ m: "msg_1" });
    expect(verifyToken(Buffer.alloc(32, 2), token)).toBeNull();
    expect(verifyToken(key, token.replace(/^./, "x"))).toBeNull();
  });
});
