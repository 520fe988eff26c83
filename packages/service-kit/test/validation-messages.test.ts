import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { ok } from "../src/index.js";
import { probeUnderTest } from "./support.js";

const kit = probeUnderTest((app) => {
  const Body = Type.Object({
    month: Type.Optional(Type.String({ pattern: "^\\d{4}-(0[1-9]|1[0-2])$", errorMessage: "must be YYYY-MM, e.g. 2026-11" })),
    code: Type.Optional(Type.String({ pattern: "^[a-z]+$", description: "lower-case letters" })),
    files: Type.Optional(Type.Array(Type.Object({ name: Type.String({ maxLength: 3 }) }), { minItems: 1 })),
    settings: Type.Optional(Type.Object({}, { minProperties: 1, additionalProperties: true })),
    when: Type.Optional(Type.String({ format: "date-time" })),
    input: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  });
  app.post("/forms", { schema: { body: Body } }, async () => ok({ accepted: true }));
});

const post = (payload: unknown, contentType = "application/json") =>
  kit.app.inject({ method: "POST", url: "/forms", headers: { ...kit.sub.headers, "content-type": contentType }, payload: payload as string });

describe("validation messages a person can act on", () => {
  it.each([
    [{ month: "2026-13" }, { field: "month", issue: "must be YYYY-MM, e.g. 2026-11" }],
    [{ code: "ABC" }, { field: "code", issue: "is not in the accepted form (lower-case letters)" }],
    [{ files: [] }, { field: "files", issue: "must not be empty: give at least one item" }],
    [{ files: [{ name: "ok" }, { name: "toolong" }] }, { field: "files[1].name", issue: "must be at most 3 characters long" }],
    [{ settings: {} }, { field: "settings", issue: "must not be empty: give at least one field" }],
    [{ when: "yesterday" }, { field: "when", issue: "must be a date and time in ISO 8601, e.g. 2026-11-25T14:30:00Z" }],
    [{ input: 123 }, { field: "input", issue: "must be a string or an array" }],
    [{ input: ["a", 1] }, { field: "input[1]", issue: "must be a string" }],
  ])("%j -> %j", async (payload, detail) => {
    const res = await post(JSON.stringify(payload));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([detail]);
    expect(res.json().error.message).not.toMatch(/pattern|NOT have|\^/);
  });
});

describe("bodies that are not JSON", () => {
  it.each(["text/plain", "application/xml", "application/x-www-form-urlencoded"])("%s is a 415 like any other non-JSON body", async (type) => {
    const res = await post("month=2026-11", type);
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});
