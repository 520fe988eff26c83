import { describe, expect, it } from "vitest";
import { credentialsMatch, parseBasicAuthorization, protectCredentials } from "../../src/domain/basic-auth.js";

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
