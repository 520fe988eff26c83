import { describe, expect, it } from "vitest";
import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";

/** Creates an inbox on a relay built with no hooks URL or hooks host of its own, and returns its hook_url. */
async function defaultHookUrl(env: Record<string, string>): Promise<{ id: string; hookUrl: string; openapi: Record<string, unknown> }> {
  const started = await startService(relayService, { env });
  const { app } = started;
  try {
    const { headers } = await started.subscribe("PRO");
    const res = await app.inject({ method: "POST", url: "/create", headers, payload: {} });
    expect(res.statusCode).toBe(201);
    const openapi = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    return { id: res.json().data.id, hookUrl: res.json().data.hook_url, openapi };
  } finally {
    await started.close();
  }
}

describe("hook_url by default", () => {
  it("is the service's own port on this machine on the local start (api.local resolves nowhere)", async () => {
    const { id, hookUrl } = await defaultHookUrl({});
    expect(hookUrl).toBe(`http://127.0.0.1:3010/h/${id}`);
  });

  it("is the public host over https when PUBLIC_DOMAIN is set", async () => {
    const { id, hookUrl } = await defaultHookUrl({ PUBLIC_DOMAIN: "relay-example.test" });
    expect(hookUrl).toBe(`https://webhook-relay.relay-example.test/h/${id}`);
  });
});

describe("/openapi.json", () => {
  it("says POST /create answers 201 with the inbox, and describes every operation", async () => {
    const { openapi } = await defaultHookUrl({});
    const paths = openapi.paths as Record<
      string,
      Record<
        string,
        { summary?: string; description?: string; responses: Record<string, { content?: Record<string, { schema: { properties: Record<string, unknown> } }> }> }
      >
    >;
    const create = paths["/create"].post;
    expect(Object.keys(create.responses).filter((status) => status.startsWith("2"))).toEqual(["201"]);
    const data = create.responses["201"].content!["application/json"].schema.properties.data as { properties: Record<string, unknown> };
    expect(Object.keys(data.properties)).toEqual([
      "id",
      "hook_url",
      "created_at",
      "expires_at",
      "default_response",
      "cors",
      "private",
      "basic_auth",
      "ip_allowlist",
      "forward_url",
      "max_requests",
      "max_stored_bytes",
    ]);
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.summary, `${method} ${path}`).toEqual(expect.any(String));
        expect(operation.description, `${method} ${path}`).toEqual(expect.any(String));
      }
    }
  });
});
