import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { testPlatform, FAST_RELAY } from "./helpers.js";

let platform: TestPlatform;
let app: ServiceApp;
let owner: { accountId: string; headers: Record<string, string> };
let other: { headers: Record<string, string> };

beforeAll(async () => {
  platform = await testPlatform();
  app = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
  owner = await platform.subscribe("webhook-relay", "MEGA");
  other = await platform.subscribe("webhook-relay", "MEGA");
});

afterAll(async () => {
  await app.close();
  await platform.close();
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

describe("platform routes", () => {
  it("documents the API in OpenAPI and answers health checks without a key", async () => {
    const spec = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    for (const path of [
      "/create",
      "/inboxes",
      "/inbox/{id}",
      "/inbox/{id}/requests/{request_id}",
      "/inbox/{id}/stream",
      "/forward/{id}",
      "/replay/{id}/{request_id}",
      "/h/{id}",
    ]) {
      expect(Object.keys(spec.paths), path).toContain(path);
    }
    expect((await app.inject({ method: "GET", url: "/health" })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/ready" })).json().data.status).toBe("ready");
  });
});

describe("gateway auth", () => {
  it("answers 401 MISSING_API_KEY without a key, 403 with a bad key or host", async () => {
    for (const [method, url] of [
      ["POST", "/create"],
      ["GET", "/inboxes"],
      ["GET", "/inbox/5b0c8a3e-1d6f-4c2a-9e8b-1f2a3b4c5d6e"],
    ] as const) {
      const res = await app.inject({ method, url });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe("MISSING_API_KEY");
    }
    const badKey = await app.inject({ method: "POST", url: "/create", headers: { ...owner.headers, "x-gateway-key": "nope" } });
    expect([badKey.statusCode, badKey.json().error.code]).toEqual([403, "INVALID_API_KEY"]);
    const badHost = await app.inject({ method: "POST", url: "/create", headers: { ...owner.headers, "x-gateway-host": "ocr.api.local" } });
    expect([badHost.statusCode, badHost.json().error.code]).toEqual([403, "HOST_MISMATCH"]);
  });
});

describe("inboxes", () => {
  it("creates an inbox with its hook URL and plan retention", async () => {
    const before = Date.now();
    const res = await app.inject({ method: "POST", url: "/create", headers: owner.headers });
    expect(res.statusCode).toBe(201);
    const inbox = res.json().data;
    expect(inbox.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(inbox.hook_url).toBe(`https://hooks.test/h/${inbox.id}`);
    expect(Date.parse(inbox.expires_at) - Date.parse(inbox.created_at)).toBe(90 * 24 * 3600 * 1000);
    expect(Date.parse(inbox.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(inbox).toMatchObject({ default_response: null, cors: true, private: false, basic_auth: null, ip_allowlist: [], forward_url: null });
  });

  it("takes each plan's retention: 24 hours BASIC, 30 days PRO, 90 days ULTRA", async () => {
    for (const [plan, days] of [
      ["BASIC", 1],
      ["PRO", 30],
      ["ULTRA", 90],
    ] as const) {
      const sub = await platform.subscribe("webhook-relay", plan);
      const inbox = (await app.inject({ method: "POST", url: "/create", headers: sub.headers })).json().data;
      expect(Date.parse(inbox.expires_at) - Date.parse(inbox.created_at), plan).toBe(days * 24 * 3600 * 1000);
    }
  });

  it("stores settings, hides the password, and changes them with PATCH", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/create",
      headers: owner.headers,
      payload: {
        default_response: { status: 201, body: "thanks" },
        cors: false,
        basic_auth: { username: "me", password: "pw" },
        ip_allowlist: ["10.0.0.1", "2001:db8::/48"],
      },
    });
    const inbox = res.json().data;
    expect(inbox).toMatchObject({
      default_response: { status: 201, body: "thanks", content_type: "text/plain; charset=utf-8" },
      cors: false,
      private: true,
      basic_auth: { username: "me" },
      ip_allowlist: ["10.0.0.1/32", "2001:db8::/48"],
    });
    expect(JSON.stringify(inbox)).not.toContain("pw");
    const empty = await app.inject({ method: "PATCH", url: `/inbox/${inbox.id}`, headers: owner.headers, payload: {} });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details).toEqual([{ field: "body", issue: "must not be empty: give at least one field" }]);
    const patched = await app.inject({
      method: "PATCH",
      url: `/inbox/${inbox.id}`,
      headers: owner.headers,
      payload: { basic_auth: null, ip_allowlist: [], default_response: null },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ default_response: null, cors: false, private: false, basic_auth: null, ip_allowlist: [] });
  });

  it("validates settings at their bounds", async () => {
    const post = (payload: object) => app.inject({ method: "POST", url: "/create", headers: owner.headers, payload });
    expect((await post({ default_response: { status: 200, body: "x".repeat(65_536) } })).statusCode).toBe(201);
    const longBody = await post({ default_response: { status: 200, body: "x".repeat(65_537) } });
    expect(longBody.json().error.details).toEqual([{ field: "default_response.body", issue: "must be at most 65536 characters long" }]);
    expect((await post({ ip_allowlist: Array(50).fill("10.0.0.1") })).statusCode).toBe(201);
    const manyIps = await post({ ip_allowlist: Array(51).fill("10.0.0.1") });
    expect(manyIps.json().error.details).toEqual([{ field: "ip_allowlist", issue: "must have at most 50 items" }]);
    const badIp = await post({ ip_allowlist: ["10.0.0.1", "10.0.0.0/40"] });
    expect(badIp.statusCode).toBe(400);
    expect(badIp.json().error.details).toEqual([{ field: "ip_allowlist[1]", issue: "must be an IPv4 or IPv6 address or CIDR range" }]);
    expect((await post({ basic_auth: { username: "u".repeat(128), password: "p".repeat(128) } })).statusCode).toBe(201);
    const longUser = await post({ basic_auth: { username: "u".repeat(129), password: "p" } });
    expect(longUser.json().error.details).toEqual([{ field: "basic_auth.username", issue: "must be at most 128 characters long" }]);
    const colon = await post({ basic_auth: { username: "a:b", password: "p" } });
    expect(colon.json().error.details).toEqual([
      { field: "basic_auth.username", issue: "must not contain a colon (:), which separates the user name from the password in Basic auth" },
    ]);
    const noPassword = await post({ basic_auth: { username: "a" } });
    expect(noPassword.json().error.details).toEqual([{ field: "basic_auth.password", issue: "is required" }]);
    expect((await post({ default_response: { status: 200, content_type: "t".repeat(255) } })).statusCode).toBe(201);
    const longType = await post({ default_response: { status: 200, content_type: "t".repeat(256) } });
    expect(longType.json().error.details).toEqual([{ field: "default_response.content_type", issue: "must be at most 255 characters long" }]);
    const injected = await post({ default_response: { status: 200, content_type: "text/html\r\nset-cookie: a=b" } });
    expect(injected.statusCode).toBe(400);
    expect(injected.json().error.details[0].field).toBe("default_response.content_type");
    const badCors = await post({ cors: "maybe" });
    expect(badCors.json().error.details).toEqual([{ field: "cors", issue: "must be a boolean" }]);
  });

  it("lists the account's inboxes newest first with a cursor, and only its own", async () => {
    const sub = await platform.subscribe("webhook-relay", "PRO");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await app.inject({ method: "POST", url: "/create", headers: sub.headers })).json().data.id);
    const page1 = (await app.inject({ method: "GET", url: "/inboxes?limit=2", headers: sub.headers })).json().data;
    expect(page1.inboxes.map((i: any) => i.id)).toEqual([ids[2], ids[1]]);
    const page2 = (await app.inject({ method: "GET", url: `/inboxes?limit=2&cursor=${page1.next_cursor}`, headers: sub.headers })).json().data;
    expect(page2.inboxes.map((i: any) => i.id)).toEqual([ids[0]]);
    expect(page2.next_cursor).toBeNull();
  });

  it("deletes an inbox and its captures", async () => {
    const inbox = (await app.inject({ method: "POST", url: "/create", headers: owner.headers })).json().data;
    await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "x" });
    const del = await app.inject({ method: "DELETE", url: `/inbox/${inbox.id}`, headers: owner.headers });
    expect(del.json().data).toEqual({ id: inbox.id, deleted: true });
    expect((await app.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: owner.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "x" })).statusCode).toBe(404);
    const { rows } = await platform.deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhook_requests WHERE inbox_id = $1", [inbox.id]);
    expect(rows[0].n).toBe(0);
  });

  it("holds at most 1000 live inboxes per account", async () => {
    const sub = await platform.subscribe("webhook-relay", "MEGA");
    await platform.deps.db.query(
      `INSERT INTO webhook_inboxes (id, account_id, created_at, expires_at, signing_secret)
       SELECT gen_random_uuid(), $1, now(), now() + interval '1 day', 'whsec_AAAA' FROM generate_series(1, 999)`,
      [sub.accountId],
    );
    expect((await app.inject({ method: "POST", url: "/create", headers: sub.headers })).statusCode).toBe(201);
    const over = await app.inject({ method: "POST", url: "/create", headers: sub.headers });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toBe("An account may hold at most 1000 live inboxes; delete one first.");
  });

  it("refuses a malformed inbox id with 400 naming the field", async () => {
    const res = await app.inject({ method: "GET", url: "/inbox/123", headers: owner.headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe("id");
  });
});

describe("who may read and change an inbox", () => {
  it("lets another subscriber read a public inbox but not change it", async () => {
    const inbox = (await app.inject({ method: "POST", url: "/create", headers: owner.headers })).json().data;
    await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "hello" });
    const read = await app.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: other.headers });
    expect(read.statusCode).toBe(200);
    expect(read.json().data.requests.map((r: any) => r.body)).toEqual(["hello"]);
    expect(Object.keys(read.json().data.inbox).sort()).toEqual(["created_at", "expires_at", "hook_url", "id"]);
    for (const [method, url, payload] of [
      ["PATCH", `/inbox/${inbox.id}`, { cors: false }],
      ["DELETE", `/inbox/${inbox.id}`, undefined],
      ["POST", `/forward/${inbox.id}`, { url: "http://127.0.0.1:9/" }],
      ["GET", `/forward/${inbox.id}`, undefined],
    ] as const) {
      const res = await app.inject({ method, url, headers: other.headers, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.code).toBe("NOT_INBOX_OWNER");
    }
  });

  it("lets another subscriber read a private inbox only with its Basic credentials", async () => {
    const inbox = (
      await app.inject({ method: "POST", url: "/create", headers: owner.headers, payload: { basic_auth: { username: "r", password: "s" } } })
    ).json().data;
    const denied = await app.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: other.headers });
    expect([denied.statusCode, denied.json().error.code]).toEqual([403, "INBOX_PRIVATE"]);
    const wrong = await app.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: { ...other.headers, authorization: basic("r", "x") } });
    expect(wrong.statusCode).toBe(403);
    const allowed = await app.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: { ...other.headers, authorization: basic("r", "s") } });
    expect(allowed.statusCode).toBe(200);
    const byOwner = await app.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: owner.headers });
    expect(byOwner.json().data.inbox.basic_auth).toEqual({ username: "r" });
  });

  it("keeps an IP-only private inbox to its owner", async () => {
    const inbox = (await app.inject({ method: "POST", url: "/create", headers: owner.headers, payload: { ip_allowlist: ["127.0.0.1"] } })).json().data;
    expect((await app.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: other.headers })).statusCode).toBe(403);
    expect((await app.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: owner.headers })).statusCode).toBe(200);
  });
});
