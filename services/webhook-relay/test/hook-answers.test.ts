import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceApp } from "@apiplat/service-kit";
import { relaySettingsFromEnv } from "../src/settings.js";
import { FAST_RELAY, HOST, relayUnderTest } from "./helpers.js";

const relay = relayUnderTest();

async function createInbox(target: ServiceApp, settings: object = {}) {
  const res = await target.inject({ method: "POST", url: "/create", headers: relay.headers, payload: settings });
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: string; hook_url: string };
}

function expectSandboxed(res: { headers: Record<string, unknown> }, what: string) {
  expect(res.headers["content-security-policy"], what).toBe("sandbox");
  expect(res.headers["x-content-type-options"], what).toBe("nosniff");
}

describe("every answer of a hook runs sandboxed", () => {
  it("a default response of text/html comes with CSP sandbox and nosniff", async () => {
    const page = "<html><script>fetch('/inboxes')</script></html>";
    const inbox = await createInbox(relay.app, { default_response: { status: 200, body: page, content_type: "text/html" } });
    const res = await relay.app.inject({ method: "GET", url: `/h/${inbox.id}/page` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html");
    expect(res.body).toBe(page);
    expectSandboxed(res, "custom html");
  });

  it("so do the default answer, a preflight, and every refusal", async () => {
    const open = await createInbox(relay.app);
    expectSandboxed(await relay.app.inject({ method: "POST", url: `/h/${open.id}`, payload: "x" }), "default answer");
    const preflight = await relay.app.inject({
      method: "OPTIONS",
      url: `/h/${open.id}`,
      headers: { origin: "https://a.test", "access-control-request-method": "POST" },
    });
    expect(preflight.statusCode).toBe(204);
    expectSandboxed(preflight, "preflight");
    const unknown = await relay.app.inject({ method: "POST", url: "/h/00000000-0000-4000-8000-000000000000", payload: "x" });
    expect(unknown.statusCode).toBe(404);
    expectSandboxed(unknown, "unknown inbox");
    const locked = await createInbox(relay.app, { basic_auth: { username: "u", password: "p" } });
    const refused = await relay.app.inject({ method: "POST", url: `/h/${locked.id}`, payload: "x" });
    expect(refused.statusCode).toBe(401);
    expectSandboxed(refused, "credentials required");
    const tooBig = await relay.app.inject({
      method: "POST",
      url: `/h/${open.id}`,
      payload: Buffer.alloc(10 * 1024 * 1024 + 1),
      headers: { "content-type": "application/octet-stream" },
    });
    expect(tooBig.statusCode).toBe(413);
    expectSandboxed(tooBig, "too large");
  });

  it("the raw body of a capture is sandboxed as well", async () => {
    const inbox = await createInbox(relay.app);
    const sent = await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, headers: { "content-type": "text/html" }, payload: "<script>1</script>" });
    const raw = await relay.app.inject({ method: "GET", url: `/inbox/${inbox.id}/requests/${sent.json().data.request_id}/raw`, headers: relay.headers });
    expect(raw.headers["content-disposition"]).toBe("attachment");
    expectSandboxed(raw, "raw");
  });
});

describe("a hooks host of their own (WEBHOOK_RELAY_HOOKS_HOST)", () => {
  let hooksApp: ServiceApp;
  const { hooksUrl: _fixedBase, ...withoutBase } = FAST_RELAY;

  beforeAll(async () => {
    hooksApp = (await startService(relayService, { platform: relay.platform, settings: { ...withoutBase, hooksHost: "hooks.api.test" } })).app;
  });

  afterAll(async () => {
    await hooksApp.close();
  });

  it("is read from the environment, lower-cased", () => {
    expect(relaySettingsFromEnv({ WEBHOOK_RELAY_HOOKS_HOST: " Hooks.Example.COM " }).hooksHost).toBe("hooks.example.com");
    expect(relaySettingsFromEnv({}).hooksHost).toBeUndefined();
  });

  it("hands out hook URLs on it, which capture there with their sub-path and query", async () => {
    const inbox = await createInbox(hooksApp);
    expect(inbox.hook_url).toBe(`http://hooks.api.test/${inbox.id}`);
    const res = await hooksApp.inject({ method: "POST", url: `/${inbox.id}/github/push?ref=main`, headers: { host: "hooks.api.test" }, payload: "x" });
    expect(res.statusCode).toBe(200);
    expectSandboxed(res, "hooks host");
    const listing = (await hooksApp.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: relay.headers })).json().data;
    expect(listing.requests.map((r: { path: string; query_string: string }) => [r.path, r.query_string])).toEqual([["/github/push", "ref=main"]]);
  });

  it("serves nothing but hooks there, and no bare /<id> hook on the API's host", async () => {
    const inbox = await createInbox(hooksApp);
    const api = await hooksApp.inject({ method: "GET", url: "/inboxes", headers: { ...relay.headers, host: "hooks.api.test" } });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.message).toBe("hooks.api.test serves hook URLs only.");
    const bareOnApiHost = await hooksApp.inject({ method: "POST", url: `/${inbox.id}`, headers: { host: HOST }, payload: "x" });
    expect(bareOnApiHost.statusCode).toBe(404);
    // The /h/<id> form keeps working on any host, for hook URLs handed out before.
    expect((await hooksApp.inject({ method: "POST", url: `/h/${inbox.id}`, headers: { host: HOST }, payload: "y" })).statusCode).toBe(200);
    const listing = (await hooksApp.inject({ method: "GET", url: `/inbox/${inbox.id}`, headers: relay.headers })).json().data;
    expect(listing.requests.map((r: { body: string }) => r.body)).toEqual(["y"]);
  });
});
