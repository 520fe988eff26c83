import { describe, expect, it } from "vitest";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createTestPlatform } from "@apiplat/testing";
import { buildProbeApp } from "./support.js";

async function openapiWith(env: Record<string, string>) {
  const platform = await createTestPlatform({ env });
  const app = await buildProbeApp(platform.deps);
  const spec = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
  await app.close();
  await platform.close();
  return spec;
}

describe("the OpenAPI document", () => {
  let spec: any;

  it("lists first the URL the service is reached at: its local port on the local start", async () => {
    spec = await openapiWith({ TEXT_TOOLKIT_PORT: "3902", BIND_ADDRESS: "0.0.0.0" });
    expect(spec.servers.map((s: { url: string }) => s.url)).toEqual(["http://127.0.0.1:3902", "https://text-toolkit.api.local"]);
  });

  it("lists the public host alone when the platform has a public domain", async () => {
    const published = await openapiWith({ PUBLIC_DOMAIN: "apis.example.com" });
    expect(published.servers).toEqual([{ url: "https://text-toolkit.apis.example.com" }]);
  });

  it("lists every operation's error answers in the envelope, each with an example", async () => {
    const echo = spec.paths["/echo"].post;
    expect(Object.keys(echo.responses).sort()).toEqual(["200", "400", "401", "403", "413", "415", "429"]);
    for (const status of ["400", "401", "403", "413", "415", "429"]) {
      const answer = echo.responses[status].content["application/json"];
      expect(answer.schema).toEqual({ $ref: "#/components/schemas/Error" });
      expect(answer.example).toMatchObject({ status: "error", error: { code: expect.any(String) }, request_id: expect.any(String) });
    }
    expect(echo.responses["401"].content["application/json"].example.error.code).toBe("MISSING_API_KEY");
    const ping = spec.paths["/ping"].get;
    expect(Object.keys(ping.responses)).not.toContain("413");
    const result = await new Validator().validate(spec);
    expect(result.errors ?? []).toEqual([]);
  });
});
