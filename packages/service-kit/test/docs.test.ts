import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { createServiceApp, ok, successSchema } from "../src/index.js";
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

describe("recorded examples in the OpenAPI document", () => {
  it("shows each recorded request in its parameters and body and each answer in its response, and a 503 refusal as an error answer", async () => {
    const dir = mkdtempSync(join(tmpdir(), "examples-"));
    const file = join(dir, "openapi-examples.json");
    const answer = { status: "success", data: { pong: true }, timestamp: "2026-11-25T07:00:00.000Z" };
    const refusal = {
      status: "error",
      error: { code: "MODEL_UNAVAILABLE", message: "The model is not installed." },
      request_id: "r",
      timestamp: "2026-11-25T07:00:00.000Z",
    };
    writeFileSync(
      file,
      JSON.stringify({
        operations: {
          "GET /ping": { request: { query: { times: 2 } }, response: { status: 200, content_type: "application/json", body: answer } },
          "POST /echo": {
            request: { body: { text: "hi" } },
            response: { status: 503, content_type: "application/json", body: refusal },
            unavailable_here: "the model is not installed",
          },
        },
      }),
    );
    const platform = await createTestPlatform();
    const app = await createServiceApp({ service: "text-toolkit", deps: platform.deps, examples: pathToFileURL(file) });
    app.get(
      "/ping",
      { schema: { querystring: Type.Object({ times: Type.Integer() }), response: { 200: successSchema(Type.Object({ pong: Type.Boolean() })) } } },
      async () => ok({ pong: true }),
    );
    app.post("/echo", { schema: { body: Type.Object({ text: Type.String() }) } }, async () => ok({}));
    const document = (await app.inject({ method: "GET", url: "/openapi.json" })).json();
    await app.close();
    await platform.close();
    rmSync(dir, { recursive: true });

    expect(document.paths["/ping"].get.parameters[0].example).toBe(2);
    expect(document.paths["/ping"].get.responses["200"].content["application/json"].example).toEqual(answer);
    expect(document.paths["/echo"].post.requestBody.content["application/json"].example).toEqual({ text: "hi" });
    expect(document.paths["/echo"].post.responses["503"]).toEqual({
      description: "MODEL_UNAVAILABLE: the model is not installed",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" }, example: refusal } },
    });
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
  });
});
