import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, requestOverHttp, type TestPlatform } from "@apiplat/testing";
import { createServiceApp, ok, type ServiceApp } from "../src/index.js";

/** Front routes only exist on a real connection (Fastify's inject skips the server), so these tests use one. */
const get = (port: number, path: string, headers: Record<string, string> = {}) => requestOverHttp(port, "GET", path, headers);

/** An app whose front route answers /front/*, declines everything else and throws on /front-throws. */
async function frontApp(platform: TestPlatform): Promise<{ app: ServiceApp; port: number }> {
  const app = await createServiceApp({ service: "text-toolkit", deps: platform.deps });
  app.addFrontRoute({
    route: "/front/:name",
    handler: (request) => {
      if (request.path === "/front-throws") throw new Error("broken front route");
      if (!request.path.startsWith("/front/")) return null;
      return { status: 200, headers: { "content-type": "text/plain; charset=utf-8" }, body: `front ${request.ip} ${request.hostname} é` };
    },
  });
  app.get("/front-throws", { config: { public: true } }, async () => ok({ by: "fastify" }));
  app.get("/facts", { config: { public: true } }, async (request) => ok({ ip: request.ip, hostname: request.hostname }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  return { app, port: (app.server.address() as AddressInfo).port };
}

describe("front routes", () => {
  let platform: TestPlatform;
  let app: ServiceApp;
  let port: number;

  beforeAll(async () => {
    platform = await createTestPlatform();
    ({ app, port } = await frontApp(platform));
  });
  afterAll(async () => {
    await app?.close();
    await platform?.close();
  });

  it("answer before routing, with the platform's request id and an exact Content-Length", async () => {
    const answer = await get(port, "/front/a?x=1", { host: "probe.example:8080" });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe("front 127.0.0.1 probe.example é");
    expect(answer.headers["content-length"]).toBe(String(Buffer.byteLength(answer.body)));
    expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const given = await get(port, "/front/b", { "x-request-id": "caller-chosen-id" });
    expect(given.headers["x-request-id"]).toBe("caller-chosen-id");
  });

  it("leave what they decline to Fastify, with a single request id", async () => {
    const answer = await get(port, "/facts", { host: "probe.example" });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: "success", data: { ip: "127.0.0.1", hostname: "probe.example" } });
    expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("hand a request to Fastify when they throw, and the failure is not the caller's", async () => {
    const answer = await get(port, "/front-throws");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: "success", data: { by: "fastify" } });
  });

  it("are counted in the latency histogram under their route", async () => {
    const before = await metricCount(port);
    await get(port, "/front/c");
    await get(port, "/front/d");
    expect((await metricCount(port)) - before).toBe(2);
  });
});

async function metricCount(port: number): Promise<number> {
  const text = (await get(port, "/metrics")).body;
  const line = text.split("\n").find((l) => l.startsWith('http_request_duration_seconds_count{method="GET",route="/front/:name",status_code="200"'));
  return line ? Number(line.split(" ").pop()) : 0;
}

describe("front routes behind a trusted proxy", () => {
  let platform: TestPlatform;
  let app: ServiceApp;
  let port: number;

  beforeAll(async () => {
    platform = await createTestPlatform({ env: { TRUST_PROXY: "127.0.0.1" } });
    ({ app, port } = await frontApp(platform));
  });
  afterAll(async () => {
    await app?.close();
    await platform?.close();
  });

  it("read the client address and host exactly as Fastify does", async () => {
    const cases: Record<string, string>[] = [
      {},
      { "x-forwarded-for": "198.51.100.4" },
      { "x-forwarded-for": "203.0.113.9, 198.51.100.4", "x-forwarded-host": "short.example" },
      { "x-forwarded-host": "a.example, b.example:8443", host: "inner:3000" },
    ];
    for (const headers of cases) {
      const front = (await get(port, "/front/x", headers)).body;
      const fastify = JSON.parse((await get(port, "/facts", headers)).body).data as { ip: string; hostname: string };
      expect(front, JSON.stringify(headers)).toBe(`front ${fastify.ip} ${fastify.hostname} é`);
    }
    expect((await get(port, "/front/x", { "x-forwarded-for": "198.51.100.4" })).body).toBe(`front 198.51.100.4 127.0.0.1 é`);
  });
});
