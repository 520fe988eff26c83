import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startService } from "@apiplat/testing";
import relayService from "../src/service.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import type { TestPlatform } from "@apiplat/testing";
import type { ServiceApp } from "@apiplat/service-kit";
import { Destination, FAST_RELAY, testPlatform, until } from "./helpers.js";

let platform: TestPlatform;
let app: ServiceApp;
let headers: Record<string, string>;
let destination: Destination;

beforeAll(async () => {
  platform = await testPlatform();
  app = (await startService(relayService, { platform, settings: FAST_RELAY })).app;
  ({ headers } = await platform.subscribe("webhook-relay", "MEGA"));
  destination = await new Destination().listen();
});

afterAll(async () => {
  await app.close();
  await destination.close();
  await platform.close();
});

/** Written from the Standard Webhooks spec, independently of the service's signer. */
function verifySignature(secret: string, id: string, timestamp: string, body: Buffer, signatureHeader: string): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key)
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]))
    .digest("base64");
  return signatureHeader.split(" ").some((sig) => sig === `v1,${expected}`);
}

async function forwardingInbox(path = "/in"): Promise<{ id: string; secret: string }> {
  const created = await app.inject({ method: "POST", url: "/create", headers });
  const id = created.json().data.id;
  const res = await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: `${destination.url}${path}` } });
  expect(res.statusCode).toBe(200);
  expect(res.json().data.url).toBe(`${destination.url}${path}`);
  return { id, secret: res.json().data.signing_secret };
}

async function requestDetail(inboxId: string, requestId: string) {
  const res = await app.inject({ method: "GET", url: `/inbox/${inboxId}/requests/${requestId}`, headers });
  return res.json().data;
}

function reset(script: number[] = []) {
  destination.received.length = 0;
  destination.script = script;
}

describe("forwarding", () => {
  it("forwards method, sub-path, query, headers and body, signed per Standard Webhooks", async () => {
    reset();
    const { id, secret } = await forwardingInbox("/in?k=1");
    expect(secret).toMatch(/^whsec_/);
    const body = '{"type":"invoice.paid","amount":1200}';
    const sent = await app.inject({
      method: "PATCH",
      url: `/h/${id}/stripe/events?a=1&a=2`,
      headers: { "content-type": "application/json", "x-repeat": ["1", "2"], connection: "keep-alive, x-hop", "x-hop": "drop me" },
      payload: body,
    });
    const requestId = sent.json().data.request_id;
    await destination.waitFor(1);
    const got = destination.received[0];
    expect(got.method).toBe("PATCH");
    expect(got.url).toBe("/in/stripe/events?k=1&a=1&a=2");
    expect(got.body.toString()).toBe(body);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["content-length"]).toBe(String(Buffer.byteLength(body)));
    expect(got.headers["x-hop"]).toBeUndefined();
    expect(got.headers["user-agent"]).toBe("lightMyRequest");
    const repeated = got.rawHeaders.filter((_, i, all) => i % 2 === 1 && all[i - 1].toLowerCase() === "x-repeat");
    expect(repeated).toEqual(["1", "2"]);
    expect(got.headers["webhook-id"]).toBe(requestId);
    const timestamp = Number(got.headers["webhook-timestamp"]);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(5);
    const signature = got.headers["webhook-signature"] as string;
    expect(verifySignature(secret, requestId, String(timestamp), got.body, signature)).toBe(true);
    expect(new Webhook(secret).verify(got.body.toString(), got.headers as Record<string, string>)).toEqual(JSON.parse(body));

    const detail = await until(async () => {
      const d = await requestDetail(id, requestId);
      return d.forwarding.state === "succeeded" ? d : undefined;
    });
    expect(detail.forwarding).toMatchObject({ state: "succeeded", attempts: 1, next_attempt_at: null });
    expect(detail.attempts).toHaveLength(1);
    expect(detail.attempts[0]).toMatchObject({ kind: "forward", attempt: 1, status_code: 200, error: null, response_body: "answer 1 status 200" });
    expect(detail.attempts[0].url).toBe(`${destination.url}/in/stripe/events?k=1&a=1&a=2`);
  });

  it("signs binary bodies over the exact bytes", async () => {
    reset();
    const { id, secret } = await forwardingInbox();
    const binary = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x80]);
    const sent = await app.inject({ method: "POST", url: `/h/${id}`, headers: { "content-type": "application/octet-stream" }, payload: binary });
    await destination.waitFor(1);
    const got = destination.received[0];
    expect(got.body.equals(binary)).toBe(true);
    expect(
      verifySignature(secret, sent.json().data.request_id, got.headers["webhook-timestamp"] as string, got.body, got.headers["webhook-signature"] as string),
    ).toBe(true);
  });

  it("retries after a destination that fails twice, then records the success", async () => {
    reset([503, 500]);
    const { id } = await forwardingInbox();
    const sent = await app.inject({ method: "POST", url: `/h/${id}`, payload: "retry me" });
    const requestId = sent.json().data.request_id;
    await destination.waitFor(3);
    expect(destination.received.map((r) => r.body.toString())).toEqual(["retry me", "retry me", "retry me"]);
    // Every attempt carries the same webhook-id so that the destination can de-duplicate.
    expect(new Set(destination.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([requestId]));
    const detail = await until(async () => {
      const d = await requestDetail(id, requestId);
      return d.forwarding.state === "succeeded" ? d : undefined;
    });
    expect(detail.forwarding.attempts).toBe(3);
    expect(detail.attempts.map((a: any) => [a.attempt, a.status_code])).toEqual([
      [1, 503],
      [2, 500],
      [3, 200],
    ]);
    expect(detail.attempts[0].next_attempt_at).not.toBeNull();
    expect(detail.attempts[2].next_attempt_at).toBeNull();
    // The schedule of the test app: 30 ms, then 60 ms (no jitter).
    expect(destination.received[1].at - destination.received[0].at).toBeGreaterThanOrEqual(25);
    expect(destination.received[2].at - destination.received[1].at).toBeGreaterThanOrEqual(55);
  });

  it("does not retry a 400", async () => {
    reset([400]);
    const { id } = await forwardingInbox();
    const sent = await app.inject({ method: "POST", url: `/h/${id}`, payload: "bad" });
    const requestId = sent.json().data.request_id;
    const detail = await until(async () => {
      const d = await requestDetail(id, requestId);
      return d.forwarding.state === "failed" ? d : undefined;
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(destination.received).toHaveLength(1);
    expect(detail.attempts.map((a: any) => [a.attempt, a.status_code, a.next_attempt_at])).toEqual([[1, 400, null]]);
  });

  it("gives up after 8 attempts", async () => {
    reset(Array(8).fill(500));
    const { id } = await forwardingInbox();
    const sent = await app.inject({ method: "POST", url: `/h/${id}`, payload: "doomed" });
    const requestId = sent.json().data.request_id;
    const detail = await until(async () => {
      const d = await requestDetail(id, requestId);
      return d.forwarding.state === "failed" ? d : undefined;
    }, 8_000);
    expect(detail.attempts.map((a: any) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(destination.received).toHaveLength(8);
  });

  it("records a network error and retries it", async () => {
    const closed = await new Destination().listen();
    const deadUrl = closed.url;
    await closed.close();
    const created = await app.inject({ method: "POST", url: "/create", headers });
    const id = created.json().data.id;
    await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: deadUrl } });
    const sent = await app.inject({ method: "POST", url: `/h/${id}`, payload: "x" });
    const detail = await until(async () => {
      const d = await requestDetail(id, sent.json().data.request_id);
      return d.attempts.length >= 2 ? d : undefined;
    });
    expect(detail.attempts[0].status_code).toBeNull();
    expect(detail.attempts[0].error).toMatch(/^Could not reach 127\.0\.0\.1:\d+\.$/);
    // Clearing the destination cancels what is still waiting.
    await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: null } });
    const cancelled = await requestDetail(id, sent.json().data.request_id);
    expect(cancelled.forwarding.state).toBe("cancelled");
  });

  it("strips the inbox's own Basic credentials before forwarding", async () => {
    reset();
    const created = await app.inject({ method: "POST", url: "/create", headers, payload: { basic_auth: { username: "u", password: "p" } } });
    const id = created.json().data.id;
    await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: destination.url } });
    await app.inject({ method: "POST", url: `/h/${id}`, payload: "x", headers: { authorization: `Basic ${Buffer.from("u:p").toString("base64")}` } });
    await destination.waitFor(1);
    expect(destination.received[0].headers.authorization).toBeUndefined();
  });
});

describe("durable delivery", () => {
  it("answers the sender at once while the destination hangs, then records the timeout", async () => {
    const hanging = createServer(() => {});
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    try {
      const created = await app.inject({ method: "POST", url: "/create", headers });
      const id = created.json().data.id;
      const port = (hanging.address() as AddressInfo).port;
      await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: `http://127.0.0.1:${port}/slow` } });
      const started = Date.now();
      const sent = await app.inject({ method: "POST", url: `/h/${id}`, payload: "no waiting" });
      expect(sent.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(1_000);
      const detail = await until(async () => {
        const d = await requestDetail(id, sent.json().data.request_id);
        return d.attempts.length >= 1 ? d : undefined;
      }, 6_000);
      expect(detail.attempts[0]).toMatchObject({ attempt: 1, status_code: null, error: `127.0.0.1:${port} did not answer within 2000 ms.` });
      expect(detail.attempts[0].next_attempt_at).not.toBeNull();
      await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: null } });
    } finally {
      hanging.closeAllConnections();
      hanging.close();
    }
  });

  it("survives the process: a retry left by a closed instance is delivered by another", async () => {
    reset([503]);
    const slowRetries = { ...FAST_RELAY, retryPolicy: { ...FAST_RELAY.retryPolicy!, baseDelaysMs: [400, 400] } };
    const first = (await startService(relayService, { platform, settings: slowRetries })).app;
    const created = await first.inject({ method: "POST", url: "/create", headers });
    const id = created.json().data.id;
    await first.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: destination.url } });
    const sent = await first.inject({ method: "POST", url: `/h/${id}`, payload: "durable" });
    await destination.waitFor(1);
    await first.close();
    // The retry is due 400 ms after the failure; the instance that queued it is gone, the others poll the queue.
    const second = (await startService(relayService, { platform, settings: slowRetries })).app;
    try {
      await destination.waitFor(2);
      expect(destination.received.map((r) => r.body.toString())).toEqual(["durable", "durable"]);
      const detail = await until(async () => {
        const res = await second.inject({ method: "GET", url: `/inbox/${id}/requests/${sent.json().data.request_id}`, headers });
        const d = res.json().data;
        return d.forwarding.state === "succeeded" ? d : undefined;
      });
      expect(detail.attempts.map((a: any) => [a.attempt, a.status_code])).toEqual([
        [1, 503],
        [2, 200],
      ]);
    } finally {
      await second.close();
    }
  });
});

describe("a full worker", () => {
  it("queues what it cannot send at once and sends it when a slot frees", async () => {
    const slow = await new Destination().listen();
    slow.delayMs = 150;
    const narrow = (await startService(relayService, { platform, settings: { ...FAST_RELAY, workerConcurrency: 1 } })).app;
    try {
      const id = (await narrow.inject({ method: "POST", url: "/create", headers })).json().data.id;
      await narrow.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: slow.url } });
      const sent = await Promise.all([1, 2, 3].map((n) => narrow.inject({ method: "POST", url: `/h/${id}`, payload: `n${n}` })));
      expect(sent.map((s) => s.statusCode)).toEqual([200, 200, 200]);
      await slow.waitFor(3);
      expect(slow.received.map((r) => r.body.toString()).sort()).toEqual(["n1", "n2", "n3"]);
    } finally {
      await narrow.close();
      await slow.close();
    }
  });
});

describe("forwarding settings", () => {
  it("refuses destinations the outbound guard refuses, and bad URLs", async () => {
    const created = await app.inject({ method: "POST", url: "/create", headers });
    const id = created.json().data.id;
    const cases: [string, string][] = [
      ["http://10.0.0.1/hook", "must not point to a private, loopback, link-local or metadata address"],
      ["http://169.254.169.254/latest", "must not point to a private, loopback, link-local or metadata address"],
      ["ftp://example.com/x", "must use http or https"],
      ["not a url", "must be an absolute http or https URL"],
    ];
    for (const [url, issue] of cases) {
      const res = await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.details, url).toEqual([{ field: "url", issue }]);
    }
    const tooLong = await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: `http://127.0.0.1/${"a".repeat(2049 - 17)}` } });
    expect(tooLong.json().error.details).toEqual([{ field: "url", issue: "must be at most 2048 characters long" }]);
    const atLimit = await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { url: `http://127.0.0.1/${"a".repeat(2048 - 17)}` } });
    expect(atLimit.statusCode).toBe(200);
  });

  it("rotates the secret and signs with both until the old one's grace period ends", async () => {
    reset();
    const { id, secret: oldSecret } = await forwardingInbox();
    const rotated = await app.inject({ method: "POST", url: `/forward/${id}`, headers, payload: { rotate_secret: true } });
    const data = rotated.json().data;
    expect(data.signing_secret).not.toBe(oldSecret);
    expect(data.url).toBe(`${destination.url}/in`);
    expect(Date.parse(data.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    const sent = await app.inject({ method: "POST", url: `/h/${id}`, payload: "rotated" });
    await destination.waitFor(1);
    const got = destination.received[0];
    const args = [sent.json().data.request_id, got.headers["webhook-timestamp"] as string, got.body, got.headers["webhook-signature"] as string] as const;
    expect((got.headers["webhook-signature"] as string).split(" ")).toHaveLength(2);
    expect(verifySignature(data.signing_secret, ...args)).toBe(true);
    expect(verifySignature(oldSecret, ...args)).toBe(true);
    const read = await app.inject({ method: "GET", url: `/forward/${id}`, headers });
    expect(read.json().data.signing_secret).toBe(data.signing_secret);
  });
});

describe("replay", () => {
  it("re-sends the exact captured request and returns the attempt's result", async () => {
    reset();
    const created = await app.inject({ method: "POST", url: "/create", headers });
    const id = created.json().data.id;
    const body = Buffer.from([0x7b, 0x00, 0xff, 0x7d]);
    const sent = await app.inject({
      method: "PUT",
      url: `/h/${id}/p?q=1`,
      payload: body,
      headers: { "content-type": "application/x-thing", "x-a": ["1", "2"] },
    });
    const requestId = sent.json().data.request_id;

    const noTarget = await app.inject({ method: "POST", url: `/replay/${id}/${requestId}`, headers });
    expect(noTarget.statusCode).toBe(409);
    // An unknown request is a 404 before anything else, also on an inbox that does not forward.
    const unknown = await app.inject({ method: "POST", url: `/replay/${id}/00000000-0000-4000-8000-000000000000`, headers });
    expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, "NOT_FOUND"]);

    const replay = async () => {
      const res = await app.inject({ method: "POST", url: `/replay/${id}/${requestId}`, headers, payload: { url: `${destination.url}/r` } });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    const first = await replay();
    const second = await replay();
    expect(first).toMatchObject({
      request_id: requestId,
      replay: 1,
      status_code: 200,
      error: null,
      response_body: "answer 1 status 200",
      url: `${destination.url}/r/p?q=1`,
    });
    expect(second.replay).toBe(2);
    expect(destination.received).toHaveLength(2);
    const [a, b] = destination.received;
    for (const got of [a, b]) {
      expect(got.method).toBe("PUT");
      expect(got.url).toBe("/r/p?q=1");
      expect(got.body.equals(body)).toBe(true);
      expect(got.headers["content-type"]).toBe("application/x-thing");
      expect(got.headers["webhook-id"]).toBe(requestId);
    }
    const strip = (raw: string[]) =>
      raw
        .filter((_, i) => i % 2 === 0)
        .map((n) => n.toLowerCase())
        .filter((n) => n !== "webhook-timestamp" && n !== "webhook-signature");
    expect(strip(a.rawHeaders)).toEqual(strip(b.rawHeaders));

    const detail = await requestDetail(id, requestId);
    expect(detail.attempts.map((x: any) => [x.kind, x.attempt, x.status_code])).toEqual([
      ["replay", 1, 200],
      ["replay", 2, 200],
    ]);
  });

  it("replays to the forwarding URL by default and reports a destination error", async () => {
    // A 400 is not retried, so nothing but the replay reaches the destination afterwards.
    reset([400]);
    const { id } = await forwardingInbox();
    const sent = await app.inject({ method: "POST", url: `/h/${id}`, payload: "again" });
    await destination.waitFor(1);
    destination.script = [418];
    const res = await app.inject({ method: "POST", url: `/replay/${id}/${sent.json().data.request_id}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ status_code: 418, response_body: "answer 2 status 418" });
  });

  it("refuses an unknown request and a refused URL", async () => {
    const created = await app.inject({ method: "POST", url: "/create", headers });
    const id = created.json().data.id;
    const sent = await app.inject({ method: "POST", url: `/h/${id}`, payload: "x" });
    const missing = await app.inject({ method: "POST", url: `/replay/${id}/5b0c8a3e-1d6f-4c2a-9e8b-1f2a3b4c5d6e`, headers, payload: { url: destination.url } });
    expect(missing.statusCode).toBe(404);
    const refused = await app.inject({ method: "POST", url: `/replay/${id}/${sent.json().data.request_id}`, headers, payload: { url: "http://192.168.1.1/" } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details[0].field).toBe("url");
  });
});
