import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "../src/index.js";
import { announceGrantChange } from "@apiplat/gateway-auth";
import { buildProbeApp } from "./support.js";

/** Polls until `done` holds, for at most a second (an announcement crosses Redis in milliseconds). */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("not within a second");
}

const CACHE_TTL_MS = 300;
let platform: TestPlatform;
let app: ServiceApp;

beforeAll(async () => {
  platform = await createTestPlatform({ env: { AUTH_CACHE_TTL_MS: String(CACHE_TTL_MS), GATEWAY_PROXY_SECRET: "proxy-secret-for-tests" } });
  app = await buildProbeApp(platform.deps);
});
afterAll(async () => {
  await app.close();
  await platform.close();
});

const ping = (headers: Record<string, string>) => app.inject({ method: "GET", url: "/ping", headers });

describe("gateway auth", () => {
  it("answers a subscribed key with its account and plan", async () => {
    const sub = await platform.subscribe("text-toolkit", "ULTRA");
    const res = await app.inject({ method: "POST", url: "/echo", headers: sub.headers, payload: { text: "hi" } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ text: "hi", account_id: sub.accountId, plan: "ULTRA" });
  });

  it("runs a route's own request hooks after authentication and metering", async () => {
    const sub = await platform.subscribe("text-toolkit", "PRO");
    const res = await app.inject({ method: "GET", url: "/whoami", headers: sub.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-seen-plan"]).toBe("PRO");
    expect(res.headers["x-seen-remaining"]).toBe("9999");
  });

  it("guards and meters the HEAD route Fastify derives from a GET route, once per request", async () => {
    const unauthenticated = await app.inject({ method: "HEAD", url: "/ping", headers: { "x-gateway-host": "text-toolkit.api.local" } });
    expect(unauthenticated.statusCode).toBe(401);
    const sub = await platform.subscribe("text-toolkit", "PRO");
    const res = await app.inject({ method: "HEAD", url: "/ping", headers: sub.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers["x-ratelimit-requests-remaining"]).toBe("9999");
    await app.usage.flush();
    const { rows } = await platform.deps.db.query<{ endpoint: string; requests: number }>(
      "SELECT endpoint, requests::int AS requests FROM usage_counts WHERE account_id = $1",
      [sub.accountId],
    );
    expect(rows).toEqual([{ endpoint: "HEAD /ping", requests: 1 }]);
  });

  it("401 MISSING_API_KEY without a key", async () => {
    const res = await ping({ "x-gateway-host": "text-toolkit.api.local" });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe("MISSING_API_KEY");
  });

  it("403 INVALID_API_KEY for an unknown key", async () => {
    const res = await ping({ "x-gateway-key": "gk_not-a-real-key", "x-gateway-host": "text-toolkit.api.local" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("INVALID_API_KEY");
  });

  it("403 HOST_MISMATCH for a missing or foreign host", async () => {
    const sub = await platform.subscribe("text-toolkit", "PRO");
    for (const host of [undefined, "time-zone.api.local", "text-toolkit.api.local.evil.com"]) {
      const headers: Record<string, string> = { "x-gateway-key": sub.key };
      if (host) headers["x-gateway-host"] = host;
      const res = await ping(headers);
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toEqual({ code: "HOST_MISMATCH", message: "X-Gateway-Host must be text-toolkit.api.local for this service." });
    }
  });

  it("403 for a key whose account is not subscribed to this service", async () => {
    const sub = await platform.subscribe("time-zone", "PRO");
    const res = await ping(platform.headersFor("text-toolkit", sub.key));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toContain("no subscription to text-toolkit");
  });

  it("stops a revoked key within the cache time", async () => {
    const sub = await platform.subscribe("text-toolkit", "PRO");
    expect((await ping(sub.headers)).statusCode).toBe(200);
    await platform.accounts.revokeKey(sub.keyId);
    await new Promise((r) => setTimeout(r, CACHE_TTL_MS + 50));
    const res = await ping(sub.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("INVALID_API_KEY");
  });

  it("stops a revoked key, or applies a new plan, as soon as the change is announced", async () => {
    const own = await createTestPlatform({ env: { AUTH_CACHE_TTL_MS: "60000" } });
    const ownApp = await buildProbeApp(own.deps);
    const call = (headers: Record<string, string>) => ownApp.inject({ method: "POST", url: "/echo", headers, payload: { text: "x" } });
    try {
      const sub = await own.subscribe("text-toolkit", "PRO");
      expect((await call(sub.headers)).json().data.plan).toBe("PRO");
      await own.accounts.subscribe(sub.accountId, ["text-toolkit"], "MEGA");
      expect((await call(sub.headers)).json().data.plan).toBe("PRO");
      await announceGrantChange(own.deps.kv, { accountId: sub.accountId });
      await until(async () => (await call(sub.headers)).json().data?.plan === "MEGA");
      await own.accounts.revokeKey(sub.keyId);
      await announceGrantChange(own.deps.kv, { keyId: sub.keyId });
      await until(async () => (await call(sub.headers)).statusCode === 403);
    } finally {
      await ownApp.close();
      await own.close();
    }
  });

  it("keeps an account's data across key rotation: a second key is the same account", async () => {
    const sub = await platform.subscribe("text-toolkit", "PRO");
    const second = await platform.accounts.createKey(sub.accountId);
    await platform.accounts.revokeKey(sub.keyId);
    const res = await app.inject({ method: "POST", url: "/echo", headers: platform.headersFor("text-toolkit", second.key), payload: { text: "x" } });
    expect(res.json().data.account_id).toBe(sub.accountId);
  });

  it("stores keys hashed, never in clear", async () => {
    const sub = await platform.subscribe("text-toolkit", "PRO");
    const { rows } = await platform.deps.db.query<{ key_hash: string; key_prefix: string }>("SELECT key_hash, key_prefix FROM api_keys WHERE id = $1", [
      sub.keyId,
    ]);
    expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].key_hash).not.toContain(sub.key);
    expect(sub.key.startsWith(rows[0].key_prefix)).toBe(true);
    expect(rows[0].key_prefix.length).toBeLessThan(10);
  });

  it("leaves public routes and the platform routes open", async () => {
    for (const url of ["/public", "/health", "/ready", "/metrics", "/openapi.json", "/docs"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode, url).toBeLessThan(400);
    }
  });

  describe("marketplace proxy mode", () => {
    const proxyHeaders = (secret: string, user: string, plan: string) => ({
      "x-gateway-proxy-secret": secret,
      "x-gateway-user": user,
      "x-gateway-subscription": plan,
      "x-gateway-host": "text-toolkit.api.local",
    });

    it("trusts the subscriber and plan sent with the shared secret, one account per subscriber", async () => {
      const first = await app.inject({
        method: "POST",
        url: "/echo",
        headers: proxyHeaders("proxy-secret-for-tests", "market-user-7", "mega"),
        payload: { text: "a" },
      });
      expect(first.statusCode).toBe(200);
      expect(first.json().data.plan).toBe("MEGA");
      const again = await app.inject({
        method: "POST",
        url: "/echo",
        headers: proxyHeaders("proxy-secret-for-tests", "market-user-7", "BASIC"),
        payload: { text: "a" },
      });
      expect(again.json().data).toMatchObject({ account_id: first.json().data.account_id, plan: "BASIC" });
    });

    it("refuses a wrong secret and a bad plan", async () => {
      expect((await ping(proxyHeaders("wrong", "u", "PRO"))).json().error.code).toBe("INVALID_API_KEY");
      const res = await ping(proxyHeaders("proxy-secret-for-tests", "u", "GOLD"));
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ field: "X-Gateway-Subscription", issue: "must be one of BASIC, PRO, ULTRA, MEGA" }]);
    });
  });
});
