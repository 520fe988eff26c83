import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPlatform, requestOverHttp, type TestPlatform, type TestSubscriber } from "@apiplat/testing";
import { ok, type ServiceApp } from "../src/index.js";
import { Type } from "typebox";
import { buildProbeApp } from "./support.js";

let platform: TestPlatform;
let app: ServiceApp;
let sub: TestSubscriber;
let port: number;

beforeAll(async () => {
  platform = await createTestPlatform({ env: { HEADERS_TIMEOUT_MS: "1000", REQUEST_TIMEOUT_MS: "2000" } });
  app = await buildProbeApp(platform.deps);
  app.get("/links/:code", { schema: { params: Type.Object({ code: Type.String() }) } }, async (request) => ok({ code: request.params.code }));
  app.get("/loose/:code", async (request) => ok({ code: (request.params as { code: string }).code }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as AddressInfo).port;
  sub = await platform.subscribe("text-toolkit", "MEGA");
});
afterAll(async () => {
  await app.close();
  await platform.close();
});

function expectEnvelope(status: number, body: string, headers: Record<string, unknown>) {
  const parsed = JSON.parse(body);
  expect(parsed).toMatchObject({ status: "error", request_id: headers["x-request-id"] });
  expect(typeof parsed.request_id).toBe("string");
  return parsed.error;
}

describe("text no column can hold", () => {
  it.each([
    ["a NUL in a path parameter with a schema", "/links/%00"],
    ["a NUL in a path parameter without one", "/loose/ab%00cd"],
    ["a NUL in the query", "/ping?times=1&q=%00"],
  ])("%s is a 400 naming the field", async (_, url) => {
    const res = await app.inject({ method: "GET", url, headers: sub.headers });
    expect(res.statusCode).toBe(400);
    const error = res.json().error;
    expect(error.code).toBe("VALIDATION_ERROR");
    expect(error.details[0].issue).toContain("NUL");
    expect(["code", "q"]).toContain(error.details[0].field);
  });

  it("refuses a NUL and a lone surrogate in a JSON body, naming the field", async () => {
    for (const [payload, issue] of [
      ['{"text":"a\\u0000b"}', "NUL"],
      ['{"text":"\\ud800"}', "surrogate"],
      ['{"text":"x\\udc00"}', "surrogate"],
    ]) {
      const res = await app.inject({ method: "POST", url: "/echo", headers: { ...sub.headers, "content-type": "application/json" }, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ field: "text", issue: expect.stringContaining(issue) }]);
    }
  });

  it("names nested fields and array items as files[0].name", async () => {
    app.log.level = "silent";
    const res = await app.inject({
      method: "POST",
      url: "/echo",
      headers: { ...sub.headers, "content-type": "application/json" },
      payload: '{"text":"ok","files":[{"name":"a\\u0000"}]}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe("files[0].name");
  });

  it("takes 64 arrays nested in a body field and refuses 65 (the body is level 0), naming the innermost one", async () => {
    const nestedIn = (levels: number) => `{"text":"ok","deep":${"[".repeat(levels)}${"]".repeat(levels)}}`;
    const post = (payload: string) => app.inject({ method: "POST", url: "/echo", headers: { ...sub.headers, "content-type": "application/json" }, payload });
    expect((await post(nestedIn(64))).statusCode).toBe(200);
    const over = await post(nestedIn(65));
    expect(over.statusCode).toBe(400);
    const field = `deep${"[0]".repeat(64)}`;
    expect(over.json().error.details).toEqual([{ field, issue: "is nested more than 64 levels deep (objects and arrays within each other)" }]);
  });

  it("accepts a surrogate pair (an emoji) untouched", async () => {
    const res = await app.inject({ method: "POST", url: "/echo", headers: sub.headers, payload: { text: "🙂" } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.text).toBe("🙂");
  });
});

describe("numbers that are not finite", () => {
  it("refuses 1e309 in a JSON body and Infinity in a query, naming the field", async () => {
    const body = await app.inject({
      method: "POST",
      url: "/echo",
      headers: { ...sub.headers, "content-type": "application/json" },
      payload: '{"text":"a","count":1e309}',
    });
    expect(body.statusCode).toBe(400);
    const query = await app.inject({ method: "GET", url: "/ping?times=Infinity", headers: sub.headers });
    expect(query.statusCode).toBe(400);
    expect(query.json().error.details[0].field).toBe("times");
  });
});

describe("errors Fastify raises before routing", () => {
  it("answers a malformed %-escape in the envelope with a request id", async () => {
    const res = await requestOverHttp(port, "GET", "/%ZZ");
    expect(res.status).toBe(400);
    expect(expectEnvelope(400, res.body, res.headers)).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "path" }] });
  });

  it("answers a path parameter over 100 characters in the envelope", async () => {
    const res = await requestOverHttp(port, "GET", `/links/${"a".repeat(101)}`, sub.headers);
    expect(res.status).toBe(400);
    expect(expectEnvelope(400, res.body, res.headers).details[0].issue).toContain("100 characters");
    const edge = await requestOverHttp(port, "GET", `/links/${"a".repeat(100)}`, sub.headers);
    expect(edge.status).toBe(200);
  });
});

describe("requests Node's HTTP parser refuses", () => {
  /** The raw answer to `head`, parsed: status, headers (lower-case) and the JSON body. */
  async function rawAnswer(head: string) {
    const { answer } = await slowClient(head, null);
    const [top, body] = answer.split("\r\n\r\n");
    const [statusLine, ...headerLines] = top.split("\r\n");
    const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
    return { status: Number(statusLine.split(" ")[1]), headers, body };
  }

  it("answers a raw space in the URL with a 400 in the envelope, naming what to fix", async () => {
    const { status, headers, body } = await rawAnswer("GET /ping?q=two words HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(status).toBe(400);
    const error = expectEnvelope(400, body, headers);
    expect(error).toMatchObject({ code: "VALIDATION_ERROR", details: [{ field: "request" }] });
    expect(error.message).toContain("%20");
  });

  it("answers headers over Node's 16 KB with a 431 in the envelope", async () => {
    const { status, headers, body } = await rawAnswer(`GET /ping HTTP/1.1\r\nHost: x\r\nx-big: ${"a".repeat(17 * 1024)}\r\n\r\n`);
    expect(status).toBe(431);
    expect(expectEnvelope(431, body, headers)).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      details: [{ field: "headers", issue: "must be at most 16 KB in all" }],
    });
  });
});

/** Opens a connection, writes `head`, then trickles or withholds the rest; resolves with when the server hung up. */
function slowClient(head: string, trickle: { everyMs: number } | null): Promise<{ closedAfterMs: number; answer: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    let answer = "";
    const socket: Socket = connect(port, "127.0.0.1", () => socket.write(head));
    const timer = trickle ? setInterval(() => socket.write("x"), trickle.everyMs) : null;
    socket.on("data", (chunk) => (answer += chunk.toString()));
    socket.on("error", () => {});
    socket.on("close", () => {
      if (timer) clearInterval(timer);
      resolve({ closedAfterMs: Date.now() - started, answer });
    });
  });
}

describe("slow clients", () => {
  it("cuts off a client that sends half its headers and stops (HEADERS_TIMEOUT_MS)", async () => {
    const { closedAfterMs } = await slowClient("GET /ping HTTP/1.1\r\nHost: x\r\n", null);
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(5_000);
  });

  it("cuts off a client that announces a body and never sends it (REQUEST_TIMEOUT_MS)", async () => {
    const head = `POST /echo HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n${headerLines()}\r\n`;
    const { closedAfterMs, answer } = await slowClient(head, null);
    expect(closedAfterMs).toBeGreaterThanOrEqual(1_900);
    expect(closedAfterMs).toBeLessThan(6_000);
    expect(answer === "" || answer.startsWith("HTTP/1.1 408")).toBe(true);
    if (answer)
      expect(JSON.parse(answer.split("\r\n\r\n")[1]).error).toMatchObject({
        code: "REQUEST_TIMEOUT",
        message: "The request did not arrive in full within 2 seconds.",
      });
  });

  it("cuts off a client that trickles its body a byte at a time", async () => {
    const head = `POST /echo HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n${headerLines()}\r\n`;
    const { closedAfterMs } = await slowClient(head, { everyMs: 200 });
    expect(closedAfterMs).toBeLessThan(6_000);
  });
});

function headerLines(): string {
  return Object.entries(sub.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
}
