import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startReplicas, type ReplicaSet, type TestSubscriber } from "@apiplat/testing";
import { OtlpReceiver, type ReceivedSpan } from "./otlp-receiver.js";

/**
 * webhook-relay behind the production nginx, exporting to an OTLP/HTTP receiver on loopback: a replay
 * (SQL, Redis and one outbound POST in one request) sent with a traceparent comes back as one trace.
 */
const SERVER = 2;
const CLIENT = 3;

let receiver: OtlpReceiver;
let destination: Server;
let destinationUrl: string;
const delivered: IncomingHttpHeaders[] = [];
let set: ReplicaSet;
let sub: TestSubscriber;

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const inTrace = (traceId: string) => receiver.spans.filter((span) => span.traceId === traceId);
const serverSpanOf = (spans: ReceivedSpan[], route: string) => spans.find((span) => span.kind === SERVER && span.attributes["http.route"] === route);

beforeAll(async () => {
  receiver = new OtlpReceiver();
  const endpoint = await receiver.listen();
  destination = createServer((request, response) => {
    delivered.push(request.headers);
    request.resume().on("end", () => response.writeHead(200, { "content-type": "text/plain" }).end("received"));
  });
  await new Promise<void>((resolve) => destination.listen(0, "127.0.0.1", resolve));
  destinationUrl = `http://127.0.0.1:${(destination.address() as AddressInfo).port}`;
  set = await startReplicas("webhook-relay", {
    replicas: 1,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_BSP_SCHEDULE_DELAY: "100", OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" },
    // Within the hook's 120 s: a machine busy with other tests is slow to compile the service.
    startTimeoutMs: 100_000,
  });
  sub = await set.platform.subscribe("webhook-relay", "PRO");
});

afterAll(async () => {
  await set?.close();
  await new Promise((resolve) => destination?.close(resolve));
  await receiver?.close();
});

/** A new inbox with one captured request; its ids. */
async function capturedRequest(): Promise<{ inbox: string; request: string }> {
  const created = await set.request({ method: "POST", path: "/create", headers: sub.headers, body: {} });
  expect(created.status).toBe(201);
  const inbox = created.json().data.id as string;
  const captured = await set.request({
    method: "PUT",
    path: `/h/${inbox}/p?token=secret-value`,
    headers: { "content-type": "text/plain" },
    body: "captured body",
  });
  expect(captured.status).toBe(200);
  return { inbox, request: captured.json().data.request_id as string };
}

describe("a request through nginx with tracing on", () => {
  it("is one trace: the caller's trace id, the service span, its SQL and Redis spans and its outbound span", async () => {
    const { inbox, request } = await capturedRequest();
    const traceId = hex(16);
    const callerSpanId = hex(8);
    const answer = await set.request({
      method: "POST",
      path: `/replay/${inbox}/${request}`,
      headers: { ...sub.headers, traceparent: `00-${traceId}-${callerSpanId}-01`, "x-request-id": "replay-1.trace:test" },
      body: { url: `${destinationUrl}/r` },
    });
    expect(answer.status).toBe(200);
    expect(answer.json().data.status_code).toBe(200);
    expect(answer.headers["x-request-id"]).toBe("replay-1.trace:test");

    const route = "/replay/:id/:request_id";
    await receiver.until(() => {
      const server = serverSpanOf(inTrace(traceId), route);
      return server !== undefined && inTrace(traceId).some((span) => span.kind === CLIENT && span.attributes["http.request.method"] === "PUT");
    });
    const spans = inTrace(traceId);
    const servers = spans.filter((span) => span.kind === SERVER);
    expect(servers).toHaveLength(1);
    const [server] = servers;
    expect(server.parentSpanId).toBe(callerSpanId);
    expect(server.name).toBe(`POST ${route}`);
    expect(server.service).toBe("webhook-relay");
    expect(server.attributes).toMatchObject({
      "apiplat.service": "webhook-relay",
      "http.route": route,
      "http.request.method": "POST",
      "http.response.status_code": 200,
      "apiplat.account.id": sub.accountId,
      "apiplat.plan": "PRO",
      "apiplat.request_id": "replay-1.trace:test",
      "url.path": `/replay/${inbox}/${request}`,
    });

    // Every other span of the trace is a child of the service span: nothing of the request is left outside it.
    const children = spans.filter((span) => span !== server);
    for (const span of children) expect(span.parentSpanId, span.name).toBe(server.spanId);

    const statements = children.filter((span) => span.attributes["db.system.name"] === "postgresql");
    // The inbox (the grant is cached), the captured request, the replay attempt recorded.
    expect(statements.map((span) => span.name)).toEqual(expect.arrayContaining(["SELECT", "INSERT"]));
    for (const span of statements) {
      const text = String(span.attributes["db.query.text"]);
      expect(span.kind).toBe(CLIENT);
      expect(text.startsWith(span.name) || text.startsWith("WITH")).toBe(true);
      // Values travel as parameters: no id, body or token of the request in a statement's text.
      for (const value of [inbox, request, sub.accountId, "captured body", "secret-value"]) expect(text).not.toContain(value);
    }
    const cacheCalls = children.filter((span) => span.attributes["db.system.name"] === "redis");
    expect(cacheCalls.map((span) => span.name)).toContain("redis admitRequest");

    const outbound = children.filter((span) => span.kind === CLIENT && span.attributes["http.request.method"] !== undefined);
    expect(outbound).toHaveLength(1);
    expect(outbound[0].attributes).toMatchObject({
      "http.request.method": "PUT",
      "url.full": `${destinationUrl}/r/p`,
      "server.address": "127.0.0.1",
      "http.response.status_code": 200,
    });
    // The destination continues the same trace, under the outbound span.
    expect(delivered.at(-1)!.traceparent).toBe(`00-${traceId}-${outbound[0].spanId}-01`);
    expect(statements.length + cacheCalls.length + outbound.length).toBe(children.length);
  });

  it("begins a trace when the caller sends none, and takes nginx's request id when the caller's is absent or unusable", async () => {
    for (const given of [undefined, "has spaces in it", "x".repeat(129)]) {
      const answer = await set.request({ method: "POST", path: "/create", headers: { ...sub.headers, ...(given ? { "x-request-id": given } : {}) }, body: {} });
      expect(answer.status).toBe(201);
      const id = answer.headers["x-request-id"] as string;
      // nginx's $request_id: 16 random bytes in hex.
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      await receiver.until((spans) => spans.some((span) => span.kind === SERVER && span.attributes["apiplat.request_id"] === id));
      const server = receiver.spans.find((span) => span.kind === SERVER && span.attributes["apiplat.request_id"] === id)!;
      expect(server.parentSpanId).toBe("");
      expect(server.name).toBe("POST /create");
      expect(inTrace(server.traceId).filter((span) => span.kind === SERVER)).toHaveLength(1);
    }
  });

  it("does not record a trace the caller marked as not sampled (parentbased_always_on)", async () => {
    const traceId = hex(16);
    const answer = await set.request({ method: "POST", path: "/create", headers: { ...sub.headers, traceparent: `00-${traceId}-${hex(8)}-00` }, body: {} });
    expect(answer.status).toBe(201);
    // A sampled request sent after it is exported; by then the first would have been too, in the same batch or before.
    const sampled = hex(16);
    await set.request({ method: "POST", path: "/create", headers: { ...sub.headers, traceparent: `00-${sampled}-${hex(8)}-01` }, body: {} });
    await receiver.until(() => inTrace(sampled).length > 0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inTrace(traceId)).toEqual([]);
  });

  it("sends the spans still waiting in the batch when the replica is stopped with SIGTERM", async () => {
    expect(await set.stop(0, "SIGTERM")).toEqual({ code: 0, signal: null });
    // A batch delay of ten minutes: only the shutdown can send this request's spans.
    await set.start(0, { OTEL_BSP_SCHEDULE_DELAY: "600000" });
    const traceId = hex(16);
    const answer = await set.request({
      method: "POST",
      path: "/create",
      headers: { ...sub.headers, traceparent: `00-${traceId}-${hex(8)}-01` },
      body: {},
      replica: 0,
    });
    expect(answer.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inTrace(traceId)).toEqual([]);
    expect(await set.stop(0, "SIGTERM")).toEqual({ code: 0, signal: null });
    const server = serverSpanOf(inTrace(traceId), "/create");
    expect(server?.attributes["http.response.status_code"]).toBe(201);
    expect(inTrace(traceId).filter((span) => span.attributes["db.system.name"] === "postgresql").length).toBeGreaterThan(0);
  }, 120_000);
});
