import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, type TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { Destination, until, FAST_RELAY } from "./helpers.js";

/** A relay listening on loopback, on a platform with the given TRUST_PROXY (unset: the default, none). */
async function relayOn(trustProxy: string | undefined) {
  const env: Record<string, string> = { OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" };
  if (trustProxy !== undefined) env.TRUST_PROXY = trustProxy;
  const platform = await createTestPlatform({ env });
  const app = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { platform, app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` };
}

const FORGED_CLIENT = {
  "x-forwarded-for": "203.0.113.7",
  "x-real-ip": "203.0.113.7",
  forwarded: "for=203.0.113.7",
  "x-forwarded-host": "victim.test",
};

async function createInbox(app: ServiceApp, headers: Record<string, string>, settings: object = {}) {
  const res = await app.inject({ method: "POST", url: "/create", headers, payload: settings });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string };
}

async function captures(app: ServiceApp, headers: Record<string, string>, inboxId: string) {
  const res = await app.inject({ method: "GET", url: `/inbox/${inboxId}`, headers });
  expect(res.statusCode).toBe(200);
  return res.json().data.requests as Array<Record<string, any>>;
}

describe.each([
  ["no trusted proxy (the default)", undefined],
  // Even if an operator trusted loopback, the relay's own requests must not carry a client's claims.
  ["loopback trusted as a proxy", "loopback"],
])("injecting into another account's IP-restricted inbox, with %s", (_label, trustProxy) => {
  let platform: TestPlatform;
  let app: ServiceApp;
  let base: string;
  let victim: Record<string, string>;
  let attacker: Record<string, string>;

  beforeAll(async () => {
    ({ platform, app, base } = await relayOn(trustProxy));
    ({ headers: victim } = await platform.subscribe("webhook-relay", "MEGA"));
    ({ headers: attacker } = await platform.subscribe("webhook-relay", "BASIC"));
  });

  afterAll(async () => {
    await app.close();
    await platform.close();
  });

  it("refuses a replay of a capture carrying a forged X-Forwarded-For to the victim's hook on loopback", async () => {
    const restricted = await createInbox(app, victim, { ip_allowlist: ["203.0.113.0/24"] });
    const own = await createInbox(app, attacker);
    const sent = await app.inject({ method: "POST", url: `/h/${own.id}`, headers: { ...FORGED_CLIENT, "content-type": "text/plain" }, payload: "injected" });
    expect(sent.statusCode).toBe(200);
    const rid = sent.json().data.request_id;

    const replay = await app.inject({ method: "POST", url: `/replay/${own.id}/${rid}`, headers: attacker, payload: { url: `${base}/h/${restricted.id}` } });
    expect(replay.statusCode).toBe(200);
    expect(replay.json().data.status_code).toBe(403);
    expect(replay.json().data.response_body).toContain("IP_NOT_ALLOWED");
    expect(await captures(app, victim, restricted.id)).toEqual([]);
  });

  it("refuses the same injection through forwarding", async () => {
    const restricted = await createInbox(app, victim, { ip_allowlist: ["203.0.113.0/24"] });
    const own = await createInbox(app, attacker);
    const forward = await app.inject({ method: "POST", url: `/forward/${own.id}`, headers: attacker, payload: { url: `${base}/h/${restricted.id}` } });
    expect(forward.statusCode).toBe(200);
    const sent = await app.inject({ method: "POST", url: `/h/${own.id}`, headers: FORGED_CLIENT, payload: "injected" });
    const rid = sent.json().data.request_id;
    const attempt = await until(async () => {
      const res = await app.inject({ method: "GET", url: `/inbox/${own.id}/requests/${rid}`, headers: attacker });
      return res.json().data.attempts[0] as { status_code: number } | undefined;
    });
    expect(attempt.status_code).toBe(403);
    expect(await captures(app, victim, restricted.id)).toEqual([]);
  });
});

describe("the sender's address", () => {
  it("ignores X-Forwarded-For when no proxy is trusted (the default)", async () => {
    const { platform, app } = await relayOn(undefined);
    try {
      const { headers } = await platform.subscribe("webhook-relay", "MEGA");
      const inbox = await createInbox(app, headers, { ip_allowlist: ["203.0.113.0/24"] });
      const forged = await app.inject({ method: "POST", url: `/h/${inbox.id}`, headers: FORGED_CLIENT, payload: "a" });
      expect(forged.statusCode).toBe(403);
      expect(forged.json().error).toEqual({
        code: "IP_NOT_ALLOWED",
        message: "This inbox accepts requests only from its IP allow-list; 127.0.0.1 is not on it.",
      });
      const open = await createInbox(app, headers);
      await app.inject({ method: "POST", url: `/h/${open.id}`, headers: FORGED_CLIENT, payload: "b" });
      expect((await captures(app, headers, open.id)).map((r) => r.source_ip)).toEqual(["127.0.0.1"]);
    } finally {
      await app.close();
      await platform.close();
    }
  });

  it("never passes a client's proxy claims or hop-by-hop headers on to a destination", async () => {
    const { platform, app } = await relayOn(undefined);
    const destination = await new Destination().listen();
    try {
      const { headers } = await platform.subscribe("webhook-relay", "MEGA");
      const inbox = await createInbox(app, headers);
      await app.inject({ method: "POST", url: `/forward/${inbox.id}`, headers, payload: { url: destination.url } });
      const sent = await app.inject({
        method: "POST",
        url: `/h/${inbox.id}`,
        headers: { ...FORGED_CLIENT, "x-forwarded-proto": "https", "proxy-authorization": "Basic eDp5", te: "trailers", "x-kept": "yes" },
        payload: "body",
      });
      await destination.waitFor(1);
      const rid = sent.json().data.request_id;
      await app.inject({ method: "POST", url: `/replay/${inbox.id}/${rid}`, headers, payload: {} });
      await destination.waitFor(2);
      for (const received of destination.received) {
        const names = Object.keys(received.headers);
        expect(names).toContain("x-kept");
        for (const name of ["x-forwarded-for", "x-real-ip", "forwarded", "x-forwarded-host", "x-forwarded-proto", "proxy-authorization", "te"]) {
          expect(names, name).not.toContain(name);
        }
        expect(received.headers.host).toBe(new URL(destination.url).host);
      }
    } finally {
      await app.close();
      await destination.close();
      await platform.close();
    }
  });
});

describe("the sender's address behind a trusted proxy (TRUST_PROXY=loopback)", () => {
  let platform: TestPlatform;
  let app: ServiceApp;
  let headers: Record<string, string>;

  beforeAll(async () => {
    ({ platform, app } = await relayOn("loopback"));
    ({ headers } = await platform.subscribe("webhook-relay", "MEGA"));
  });

  afterAll(async () => {
    await app.close();
    await platform.close();
  });

  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  const captured = (inboxId: string) => captures(app, headers, inboxId);

  it("refuses senders outside the IP allow-list (403) and stores only the allowed one", async () => {
    const inbox = await createInbox(app, headers, { ip_allowlist: ["203.0.113.0/24", "2001:db8::1"] });
    // Requests come from loopback, a trusted proxy here, so X-Forwarded-For names the sender.
    const outside = await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "a", headers: { "x-forwarded-for": "198.51.100.4" } });
    expect(outside.statusCode).toBe(403);
    expect(outside.json().error.code).toBe("IP_NOT_ALLOWED");
    const direct = await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "b" });
    expect(direct.statusCode).toBe(403);
    const inside = await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "c", headers: { "x-forwarded-for": "203.0.113.77" } });
    expect(inside.statusCode).toBe(200);
    const v6 = await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "d", headers: { "x-forwarded-for": "2001:db8::1" } });
    expect(v6.statusCode).toBe(200);
    const requests = await captured(inbox.id);
    expect(requests.map((r) => [r.body, r.source_ip])).toEqual([
      ["d", "2001:db8::1"],
      ["c", "203.0.113.77"],
    ]);
  });

  it("needs both when both are set", async () => {
    const inbox = await createInbox(app, headers, { basic_auth: { username: "u", password: "p" }, ip_allowlist: ["203.0.113.0/24"] });
    const auth = { authorization: basic("u", "p") };
    expect(
      (await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "a", headers: { ...auth, "x-forwarded-for": "198.51.100.4" } })).statusCode,
    ).toBe(403);
    expect((await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "b", headers: { "x-forwarded-for": "203.0.113.4" } })).statusCode).toBe(401);
    expect((await app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "c", headers: { ...auth, "x-forwarded-for": "203.0.113.4" } })).statusCode).toBe(
      200,
    );
    expect((await captured(inbox.id)).map((r) => r.body)).toEqual(["c"]);
  });
});
