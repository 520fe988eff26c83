import { connect } from "node:net";
import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import { describe, expect, it } from "vitest";
import { FAST_RELAY, relayUnderTest } from "./helpers.js";

const relay = relayUnderTest();

async function createInbox(settings?: object): Promise<{ id: string; hook_url: string }> {
  const res = await relay.app.inject({ method: "POST", url: "/create", headers: relay.headers, payload: settings });
  expect(res.statusCode).toBe(201);
  return res.json().data;
}

async function captured(inboxId: string, query = "") {
  const res = await relay.app.inject({ method: "GET", url: `/inbox/${inboxId}${query}`, headers: relay.headers });
  expect(res.statusCode).toBe(200);
  return res.json().data.requests as Array<Record<string, any>>;
}

async function detail(inboxId: string, requestId: string) {
  const res = await relay.app.inject({ method: "GET", url: `/inbox/${inboxId}/requests/${requestId}`, headers: relay.headers });
  expect(res.statusCode).toBe(200);
  return res.json().data;
}

describe("capture", () => {
  it("captures a POST byte-exact with sub-path, query and repeated headers", async () => {
    const inbox = await createInbox();
    const res = await relay.app.inject({
      method: "POST",
      url: `/h/${inbox.id}/github/push?a=1&a=2&b=x%20y`,
      headers: { "content-type": "application/json", "x-repeat": ["one", "two"], "X-Case": "Kept" },
      payload: '{"event":"push","n":1}',
    });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.status).toBe("success");
    expect(answer.data.inbox_id).toBe(inbox.id);
    expect(res.headers["x-webhook-request-id"]).toBe(answer.data.request_id);

    const [request] = await captured(inbox.id);
    expect(request.id).toBe(answer.data.request_id);
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/github/push");
    expect(request.query_string).toBe("a=1&a=2&b=x%20y");
    expect(request.query).toEqual({ a: ["1", "2"], b: "x y" });
    expect(request.body).toBe('{"event":"push","n":1}');
    expect(request.body_encoding).toBe("text");
    expect(request.body_size).toBe(22);
    expect(request.body_omitted).toBe(false);
    expect(request.content_type).toBe("application/json");
    expect(request.source_ip).toBe("127.0.0.1");
    expect(request.forwarding).toBeNull();
    expect(request.headers.filter((h: any) => h.name === "x-repeat")).toEqual([
      { name: "x-repeat", value: "one" },
      { name: "x-repeat", value: "two" },
    ]);
    expect(request.headers).toContainEqual({ name: "x-case", value: "Kept" });
  });

  it("keeps header case and order over a real socket, and a chunked body", async () => {
    const inbox = await createInbox();
    const address = await relay.app.listen({ port: 0, host: "127.0.0.1" });
    const port = new URL(address).port;
    // Raw bytes on a socket: no client library normalizes the header names or the framing.
    const status = await new Promise<number>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `PUT /h/${inbox.id}/deep/path?x=1 HTTP/1.1\r\nX-Mixed-Case: A\r\nx-mixed-case: B\r\nTransfer-Encoding: chunked\r\n` +
            `Host: hooks.test\r\nConnection: close\r\n\r\n5\r\nline1\r\n7\r\n\nline2\n\r\n0\r\n\r\n`,
        );
      });
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk.toString()));
      socket.on("end", () => resolve(Number(answer.split(" ")[1])));
      socket.on("error", reject);
    });
    expect(status).toBe(200);
    const [captured_] = await captured(inbox.id);
    expect(captured_.method).toBe("PUT");
    expect(captured_.path).toBe("/deep/path");
    expect(captured_.body).toBe("line1\nline2\n");
    expect(captured_.headers.slice(0, 3)).toEqual([
      { name: "X-Mixed-Case", value: "A" },
      { name: "x-mixed-case", value: "B" },
      { name: "Transfer-Encoding", value: "chunked" },
    ]);
  });

  it("captures every method, a binary body as base64 and the raw bytes back", async () => {
    const inbox = await createInbox();
    const binary = Buffer.from([0x00, 0xff, 0x10, 0x80, 0x7f, 0x0a, 0x00]);
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const) {
      const res = await relay.app.inject({ method, url: `/h/${inbox.id}`, headers: { "content-type": "application/octet-stream" }, payload: binary });
      expect(res.statusCode, method).toBe(200);
    }
    const requests = await captured(inbox.id);
    expect(requests.map((r) => r.method)).toEqual(["HEAD", "OPTIONS", "DELETE", "PATCH", "PUT", "POST", "GET"]);
    for (const request of requests) {
      expect(request.body_encoding, request.method).toBe("base64");
      expect(Buffer.from(request.body, "base64").equals(binary), request.method).toBe(true);
      expect(request.body_size).toBe(7);
      const raw = await relay.app.inject({ method: "GET", url: `/inbox/${inbox.id}/requests/${request.id}/raw`, headers: relay.headers });
      expect(raw.statusCode).toBe(200);
      expect(raw.headers["content-type"]).toBe("application/octet-stream");
      expect(raw.rawPayload.equals(binary)).toBe(true);
    }
  });

  it("captures an empty body and a request without content type", async () => {
    const inbox = await createInbox();
    expect((await relay.app.inject({ method: "POST", url: `/h/${inbox.id}` })).statusCode).toBe(200);
    expect((await relay.app.inject({ method: "GET", url: `/h/${inbox.id}/` })).statusCode).toBe(200);
    const requests = await captured(inbox.id);
    expect(requests.map((r) => [r.method, r.path, r.body, r.body_size, r.content_type])).toEqual([
      ["GET", "/", "", 0, null],
      ["POST", "/", "", 0, null],
    ]);
  });

  it("stores concurrent captures written in shared batches, failing only those of a vanished inbox", async () => {
    const kept = await createInbox();
    const vanished = await createInbox();
    // The hook path has `vanished` in its cache; deleting the row behind its back makes its inserts fail.
    expect((await relay.app.inject({ method: "POST", url: `/h/${vanished.id}`, payload: "warm" })).statusCode).toBe(200);
    await relay.platform.deps.db.query("DELETE FROM webhook_inboxes WHERE id = $1", [vanished.id]);
    const sends = Array.from({ length: 40 }, (_, i) =>
      relay.app.inject({ method: "POST", url: `/h/${i % 2 === 0 ? kept.id : vanished.id}`, payload: `c${i}` }),
    );
    const answers = await Promise.all(sends);
    expect(answers.filter((_, i) => i % 2 === 0).map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.filter((_, i) => i % 2 === 1).map((a) => a.statusCode)).toEqual(Array(20).fill(404));
    const requests = await captured(kept.id, "?limit=100");
    expect(requests.map((r) => r.body).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `c${i * 2}`).sort());
    expect(new Set(requests.map((r) => r.id)).size).toBe(20);
  });

  it("answers 404 for an unknown inbox and stores nothing", async () => {
    const res = await relay.app.inject({ method: "POST", url: "/h/5b0c8a3e-1d6f-4c2a-9e8b-1f2a3b4c5d6e", payload: "x" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("NOT_FOUND");
    expect((await relay.app.inject({ method: "POST", url: "/h/not-a-uuid", payload: "x" })).statusCode).toBe(404);
  });
});

describe("body size limit", () => {
  const limit = 10 * 1024 * 1024;

  it("stores a body of exactly 10 MiB and refuses one byte more with 413, storing nothing", async () => {
    const inbox = await createInbox();
    const atLimit = Buffer.alloc(limit, 0x61);
    const ok = await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, headers: { "content-type": "text/plain" }, payload: atLimit });
    expect(ok.statusCode).toBe(200);
    const over = await relay.app.inject({
      method: "POST",
      url: `/h/${inbox.id}`,
      headers: { "content-type": "text/plain" },
      payload: Buffer.alloc(limit + 1, 0x61),
    });
    expect(over.statusCode).toBe(413);
    expect(over.json().error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(over.json().error.details).toEqual([{ field: "body", issue: `must be at most ${limit} bytes` }]);
    const overGet = await relay.app.inject({
      method: "GET",
      url: `/h/${inbox.id}`,
      headers: { "content-type": "text/plain" },
      payload: Buffer.alloc(limit + 1, 0x61),
    });
    expect(overGet.statusCode).toBe(413);

    const requests = await captured(inbox.id);
    expect(requests).toHaveLength(1);
    expect(requests[0].body_size).toBe(limit);
    // Listings leave out bodies above 64 KiB, the request's JSON those above 1 MiB; /raw has it whole.
    expect(requests[0].body).toBeNull();
    expect(requests[0].body_omitted).toBe(true);
    const json = await detail(inbox.id, requests[0].id);
    expect(json.body).toBeNull();
    expect(json.body_omitted).toBe(true);
    expect(json.body_size).toBe(limit);
    const raw = await relay.app.inject({ method: "GET", url: `/inbox/${inbox.id}/requests/${requests[0].id}/raw`, headers: relay.headers });
    expect(raw.statusCode).toBe(200);
    expect(raw.headers["content-length"]).toBe(String(limit));
    expect(raw.rawPayload.equals(atLimit)).toBe(true);
  });

  it("inlines a body of exactly 64 KiB in listings and omits one byte more", async () => {
    const inbox = await createInbox();
    await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: Buffer.alloc(65_536, 0x62), headers: { "content-type": "text/plain" } });
    await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: Buffer.alloc(65_537, 0x62), headers: { "content-type": "text/plain" } });
    const [over, at] = await captured(inbox.id);
    expect([at.body_size, at.body_omitted, at.body.length]).toEqual([65_536, false, 65_536]);
    expect([over.body_size, over.body_omitted, over.body]).toEqual([65_537, true, null]);
  });
});

describe("private inboxes", () => {
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

  it("refuses senders without the Basic credentials (401) and stores only the accepted one", async () => {
    const inbox = await createInbox({ basic_auth: { username: "hook", password: "pa:ss" } });
    const none = await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "a" });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe("INBOX_CREDENTIALS_REQUIRED");
    expect(none.headers["www-authenticate"]).toBe('Basic realm="webhook-relay", charset="UTF-8"');
    const wrong = await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "b", headers: { authorization: basic("hook", "nope") } });
    expect(wrong.statusCode).toBe(401);
    const right = await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "c", headers: { authorization: basic("hook", "pa:ss") } });
    expect(right.statusCode).toBe(200);
    const requests = await captured(inbox.id);
    expect(requests.map((r) => r.body)).toEqual(["c"]);
  });
});

describe("answers to senders", () => {
  it("gives the custom default response", async () => {
    const inbox = await createInbox({ default_response: { status: 202, body: "<ok/>", content_type: "application/xml" } });
    const res = await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: "x" });
    expect(res.statusCode).toBe(202);
    expect(res.headers["content-type"]).toBe("application/xml");
    expect(res.body).toBe("<ok/>");
  });

  it("accepts statuses 200 and 599 and refuses 199 and 600", async () => {
    for (const status of [200, 599]) {
      const inbox = await createInbox({ default_response: { status } });
      const res = await relay.app.inject({ method: "POST", url: `/h/${inbox.id}` });
      expect(res.statusCode).toBe(status);
      expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    }
    for (const [status, issue] of [
      [199, "must be at least 200"],
      [600, "must be at most 599"],
    ] as const) {
      const res = await relay.app.inject({ method: "POST", url: "/create", headers: relay.headers, payload: { default_response: { status } } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ field: "default_response.status", issue }]);
    }
  });

  it("answers a CORS preflight with 204 and CORS headers, and captures it", async () => {
    const inbox = await createInbox();
    const res = await relay.app.inject({
      method: "OPTIONS",
      url: `/h/${inbox.id}`,
      headers: { origin: "https://app.test", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers["access-control-allow-origin"]).toBe("https://app.test");
    expect(res.headers["access-control-allow-headers"]).toBe("content-type");
    expect(res.headers["access-control-allow-methods"]).toBe("GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD");
    expect((await captured(inbox.id)).map((r) => r.method)).toEqual(["OPTIONS"]);
  });

  it("sends no CORS headers when CORS is off", async () => {
    const inbox = await createInbox({ cors: false });
    const res = await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, headers: { origin: "https://app.test" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("reading an inbox", () => {
  it("pages newest first with a cursor", async () => {
    const inbox = await createInbox();
    for (let i = 1; i <= 5; i++) await relay.app.inject({ method: "POST", url: `/h/${inbox.id}`, payload: `n${i}` });
    const first = await relay.app.inject({ method: "GET", url: `/inbox/${inbox.id}?limit=2`, headers: relay.headers });
    expect(first.json().data.requests.map((r: any) => r.body)).toEqual(["n5", "n4"]);
    const cursor = first.json().data.next_cursor;
    const second = await relay.app.inject({ method: "GET", url: `/inbox/${inbox.id}?limit=2&cursor=${cursor}`, headers: relay.headers });
    expect(second.json().data.requests.map((r: any) => r.body)).toEqual(["n3", "n2"]);
    const third = await relay.app.inject({ method: "GET", url: `/inbox/${inbox.id}?limit=2&cursor=${second.json().data.next_cursor}`, headers: relay.headers });
    expect(third.json().data.requests.map((r: any) => r.body)).toEqual(["n1"]);
    expect(third.json().data.next_cursor).toBeNull();
  });

  it("accepts limit 1 and 100 and refuses 0 and 101", async () => {
    const inbox = await createInbox();
    for (const limit of [1, 100])
      expect((await relay.app.inject({ method: "GET", url: `/inbox/${inbox.id}?limit=${limit}`, headers: relay.headers })).statusCode).toBe(200);
    for (const [limit, issue] of [
      [0, "must be at least 1"],
      [101, "must be at most 100"],
    ] as const) {
      const res = await relay.app.inject({ method: "GET", url: `/inbox/${inbox.id}?limit=${limit}`, headers: relay.headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([{ field: "limit", issue }]);
    }
    const bad = await relay.app.inject({ method: "GET", url: `/inbox/${inbox.id}?cursor=zzz`, headers: relay.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual([{ field: "cursor", issue: "must be a next_cursor returned by this endpoint" }]);
  });

  it("filters by method, time range and text in the body or a header value", async () => {
    let clock = new Date("2026-03-01T10:00:00.000Z");
    const clocked = (
      await startService(relayService, { platform: { ...relay.platform, deps: { ...relay.platform.deps, now: () => clock } }, settings: FAST_RELAY })
    ).app;
    try {
      const res = await clocked.inject({ method: "POST", url: "/create", headers: relay.headers });
      const id = res.json().data.id;
      const send = async (method: "POST" | "PUT", body: string, at: string, extra: Record<string, string> = {}) => {
        clock = new Date(at);
        await clocked.inject({ method, url: `/h/${id}`, payload: body, headers: { "content-type": "text/plain", ...extra } });
      };
      await send("POST", "order created", "2026-03-01T10:00:01.000Z");
      await send("PUT", "order updated", "2026-03-01T10:00:02.000Z", { "x-event": "Invoice.Paid" });
      await send("POST", "refund", "2026-03-01T10:00:03.000Z");
      const bodies = async (query: string) => {
        const r = await clocked.inject({ method: "GET", url: `/inbox/${id}?${query}`, headers: relay.headers });
        expect(r.statusCode).toBe(200);
        return r.json().data.requests.map((x: any) => x.body);
      };
      expect(await bodies("method=POST")).toEqual(["refund", "order created"]);
      expect(await bodies("method=PUT")).toEqual(["order updated"]);
      expect(await bodies("since=2026-03-01T10:00:02.000Z")).toEqual(["refund", "order updated"]);
      expect(await bodies("until=2026-03-01T10:00:02.000Z")).toEqual(["order created"]);
      expect(await bodies("since=2026-03-01T10:00:02Z&until=2026-03-01T10:00:03Z")).toEqual(["order updated"]);
      expect(await bodies("q=order")).toEqual(["order updated", "order created"]);
      expect(await bodies("q=Invoice.Paid")).toEqual(["order updated"]);
      expect(await bodies("q=invoice.paid")).toEqual([]);
      expect(await bodies("q=100%25")).toEqual([]);
      expect(await bodies(`q=${"x".repeat(256)}`)).toEqual([]);
      const tooLong = await clocked.inject({ method: "GET", url: `/inbox/${id}?q=${"x".repeat(257)}`, headers: relay.headers });
      expect(tooLong.json().error.details).toEqual([{ field: "q", issue: "must be at most 256 characters long" }]);
      const badTime = await clocked.inject({ method: "GET", url: `/inbox/${id}?since=yesterday`, headers: relay.headers });
      expect(badTime.json().error.details).toEqual([{ field: "since", issue: "must be an ISO 8601 date-time" }]);
      const badMethod = await clocked.inject({ method: "GET", url: `/inbox/${id}?method=TRACE`, headers: relay.headers });
      expect(badMethod.statusCode).toBe(400);
    } finally {
      await clocked.close();
    }
  });
});
