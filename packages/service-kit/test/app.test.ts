import { describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { probeOnOwnPlatform, probeUnderTest } from "./support.js";

const kit = probeUnderTest();

const echo = (payload: string | object, headers: Record<string, string> = {}) =>
  kit.app.inject({ method: "POST", url: "/echo", headers: { ...kit.sub.headers, ...headers }, payload });

function expectEnvelope(res: Awaited<ReturnType<typeof echo>>, status: number, code: string) {
  expect(res.statusCode).toBe(status);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(["error", "request_id", "status", "timestamp"]);
  expect(body).toMatchObject({ status: "error", error: { code }, request_id: res.headers["x-request-id"] });
  expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  return body.error;
}

describe("the shared envelope", () => {
  it("wraps success as {status, data, timestamp}", async () => {
    const body = (await echo({ text: "hi" })).json();
    expect(Object.keys(body).sort()).toEqual(["data", "status", "timestamp"]);
    expect(body.status).toBe("success");
  });

  it("names the field and the bound of a validation error", async () => {
    expect(expectEnvelope(await echo({ text: "toolong" }), 400, "VALIDATION_ERROR")).toEqual({
      code: "VALIDATION_ERROR",
      message: "text must be at most 5 characters long.",
      details: [{ field: "text", issue: "must be at most 5 characters long" }],
    });
    expect(expectEnvelope(await echo({ text: "a", count: 4 }), 400, "VALIDATION_ERROR").details).toEqual([{ field: "count", issue: "must be at most 3" }]);
    expect(expectEnvelope(await echo({ text: "a", mode: "c" }), 400, "VALIDATION_ERROR").details).toEqual([{ field: "mode", issue: "must be one of: a, b" }]);
    expect(expectEnvelope(await echo({}), 400, "VALIDATION_ERROR").details).toEqual([{ field: "text", issue: "is required" }]);
    expect(expectEnvelope(await echo({ text: 5 }), 400, "VALIDATION_ERROR").details).toEqual([{ field: "text", issue: "must be a string" }]);
  });

  it("answers malformed JSON, a too-large body and a wrong media type in the envelope", async () => {
    expectEnvelope(await echo("{not json", { "content-type": "application/json" }), 400, "VALIDATION_ERROR");
    expect(expectEnvelope(await echo({ text: "x".repeat(2000) }), 413, "PAYLOAD_TOO_LARGE").details).toEqual([
      { field: "body", issue: "must be at most 1024 bytes" },
    ]);
    expectEnvelope(await echo("text=hi", { "content-type": "application/x-www-form-urlencoded" }), 415, "UNSUPPORTED_MEDIA_TYPE");
  });

  it("answers unknown paths with 404 NOT_FOUND", async () => {
    expectEnvelope(await kit.app.inject({ method: "GET", url: "/nope" }), 404, "NOT_FOUND");
  });

  it("hides internals of unexpected errors", async () => {
    const res = await kit.app.inject({ method: "GET", url: "/boom", headers: kit.sub.headers });
    const error = expectEnvelope(res, 500, "INTERNAL_ERROR");
    expect(res.body).not.toMatch(/10\.0\.0\.5|\/srv|db\.ts|stack/);
    expect(error.message).toContain("request_id");
  });
});

describe("request ids", () => {
  it("keeps a caller's X-Request-Id and makes one otherwise", async () => {
    const given = await echo({ text: "a" }, { "x-request-id": "trace-123.abc" });
    expect(given.headers["x-request-id"]).toBe("trace-123.abc");
    const made = await echo({ text: "a" }, { "x-request-id": "bad id with spaces" });
    expect(made.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("makes distinct ids in the shape of a UUIDv4", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const id = (await echo({ text: "a" })).headers["x-request-id"] as string;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(20);
  });
});

describe("client address behind a reverse proxy (TRUST_PROXY)", () => {
  // nginx appends the address it saw to whatever X-Forwarded-For the client sent, so only the right-most entries
  // were written by proxies; the left-most can be anything the client chose.
  const forwardedFor = "6.6.6.6, 203.0.113.9, 10.0.0.2";
  const ipSeen = async (trustProxy: string) => {
    const { app: probe, subscriber, close } = await probeOnOwnPlatform({ TRUST_PROXY: trustProxy });
    try {
      const res = await probe.inject({ method: "GET", url: "/whoami", headers: { ...subscriber.headers, "x-forwarded-for": forwardedFor } });
      return res.json().data.ip as string;
    } finally {
      await close();
    }
  };

  it("named proxy ranges give the nearest address no trusted proxy wrote: the client's, as nginx saw it", async () => {
    expect(await ipSeen("loopback,linklocal,uniquelocal")).toBe("203.0.113.9");
  });

  it("'true' trusts every hop and so takes the left-most entry, which the client can write itself", async () => {
    expect(await ipSeen("true")).toBe("6.6.6.6");
  });

  it("unset, the socket's address", async () => {
    expect(await ipSeen("")).toBe("127.0.0.1");
  });
});

describe("platform routes", () => {
  it("serves a valid OpenAPI 3.1 document generated from the route schemas", async () => {
    const spec = (await kit.app.inject({ method: "GET", url: "/openapi.json" })).json();
    expect(spec.openapi).toBe("3.1.0");
    expect(Object.keys(spec.paths).sort()).toEqual(["/boom", "/echo", "/fail/{code}", "/ping", "/public", "/whoami"]);
    expect(spec.paths["/echo"].post.requestBody.content["application/json"].schema.properties.count).toMatchObject({ minimum: 1, maximum: 3 });
    expect(spec.paths["/ping"].get.parameters).toEqual([
      expect.objectContaining({ name: "times", in: "query", required: false, schema: expect.objectContaining({ default: 1, maximum: 9 }) }),
    ]);
    const result = await new Validator().validate(spec);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("serves the docs page", async () => {
    const res = await kit.app.inject({ method: "GET", url: "/docs/" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain("swagger");
  });

  it("reports readiness of the database and the cache", async () => {
    expect((await kit.app.inject({ method: "GET", url: "/ready" })).json().data).toEqual({ status: "ready", checks: { database: "ok", cache: "ok" } });
  });

  it("exposes per-route latency histograms, whose counts are the requests by route and status", async () => {
    await echo({ text: "m" });
    const text = (await kit.app.inject({ method: "GET", url: "/metrics" })).body;
    const buckets = text
      .split("\n")
      .filter((l) => l.startsWith("http_request_duration_seconds_bucket") && l.includes('route="/echo"') && l.includes('status_code="200"'));
    expect(buckets.length).toBe(15);
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/echo"[^}]*status_code="200"[^}]*\} [1-9]\d*/);
  });
});
