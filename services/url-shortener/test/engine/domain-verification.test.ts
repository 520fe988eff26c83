import { describe, expect, it } from "vitest";
import { verifyCname } from "../../src/engine/domain-verification.js";

describe("verifyCname", () => {
  it("accepts the edge host in any case with a trailing dot and explains failures", async () => {
    const resolver = (answer: string[] | Error) => ({ resolveCname: async () => (answer instanceof Error ? Promise.reject(answer) : answer) });
    expect(await verifyCname(resolver(["EDGE.example."]), "go.x.example", "edge.example")).toEqual({ verified: true });
    expect(await verifyCname(resolver(["other.example"]), "go.x.example", "edge.example")).toEqual({
      verified: false,
      reason: "the CNAME of go.x.example points at other.example, not at edge.example",
    });
    const servfail = Object.assign(new Error("x"), { code: "ESERVFAIL" });
    expect(await verifyCname(resolver(servfail), "go.x.example", "edge.example")).toEqual({
      verified: false,
      reason: "the DNS lookup of go.x.example failed (ESERVFAIL)",
    });
  });
});
