import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import type { TestSubscriber } from "@apiplat/testing";
import { CaptureServer, startEmail, type EmailService } from "./helpers.js";

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

let capture: CaptureServer;
let started: EmailService;
let caller: TestSubscriber;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Status codes the receiver answers with, in order; 200 once they run out. */
const answers: number[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.statusCode = answers.shift() ?? 200;
      res.end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", () => resolve()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/email`;
  capture = new CaptureServer();
  await capture.start();
  started = await startEmail(
    capture,
    {},
    {
      env: { OUTBOUND_ALLOW_CIDRS: "127.0.0.0/8" },
      inject: { webhookRetryPolicy: { baseDelaysMs: [50, 50], jitterFraction: 0, maxRetryAfterMs: 1_000 } },
    },
  );
  caller = await started.subscribe("PRO");
});
afterAll(async () => {
  await started.close();
  await capture.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

const call = (method: "GET" | "POST" | "DELETE", url: string, payload?: object, headers = caller.headers) =>
  started.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function waitFor<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe("status webhooks", () => {
  it("POSTs each subscribed status change, signed per Standard Webhooks, and retries a failed delivery", async () => {
    const created = await call("POST", "/webhooks", { url: receiverUrl, event_types: ["sent", "bounced"] });
    expect(created.statusCode).toBe(201);
    const hook = created.json().data;
    expect(hook.id).toMatch(/^wh_[0-9a-f]{16}$/);
    expect(hook.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    answers.push(500);
    const sent = await call("POST", "/send", { to: "ada@example.com", subject: "hook", html: "<p>x</p>", tags: ["t1"], metadata: { order: "7" } });
    const id = sent.json().data.id;
    const deliveries = await waitFor(() => {
      const mine = received.filter((r) => r.body.includes(id));
      return mine.length >= 2 ? mine : undefined;
    });
    // The retry is the same event: same webhook-id, signed again.
    expect(deliveries[0].headers["webhook-id"]).toBe(deliveries[1].headers["webhook-id"]);
    const verified = new Webhook(hook.signing_secret).verify(deliveries[1].body, deliveries[1].headers as Record<string, string>) as Record<string, unknown>;
    expect(verified).toMatchObject({
      type: "email.sent",
      data: { message_id: id, status: "sent", recipient: null, tags: ["t1"], metadata: { order: "7" } },
    });
    expect(deliveries[1].headers["content-type"]).toBe("application/json");
    expect(() =>
      new Webhook(hook.signing_secret).verify(deliveries[1].body.replace("sent", "bounced"), deliveries[1].headers as Record<string, string>),
    ).toThrow();

    let recent: { state: string }[] = [];
    for (let i = 0; i < 100 && recent[0]?.state !== "delivered"; i++) {
      recent = (await call("GET", `/webhooks/${hook.id}`)).json().data.recent_deliveries;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(recent[0]).toMatchObject({ state: "delivered", attempts: 2, last_status: 200 });
    // "queued" was not subscribed: only sent reached the receiver.
    expect(received.filter((r) => r.body.includes(id)).every((r) => JSON.parse(r.body).type === "email.sent")).toBe(true);
  });

  it("refuses destinations the outbound guard does not allow", async () => {
    for (const url of ["http://10.0.0.1/hook", "http://169.254.169.254/latest/meta-data", "ftp://127.0.0.1/x"]) {
      const res = await call("POST", "/webhooks", { url, event_types: ["sent"] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.details[0].field).toBe("url");
    }
    const badType = await call("POST", "/webhooks", { url: receiverUrl, event_types: ["exploded"] });
    expect(badType.statusCode).toBe(400);
  });

  it("refuses a host that does not resolve with 400 naming url (the subscriber's mistake, not a 502)", async () => {
    const res = await call("POST", "/webhooks", { url: "https://hooks.nowhere.invalid/email", event_types: ["sent"] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details).toEqual([
      { field: "url", issue: "names a host that does not resolve (hooks.nowhere.invalid has no DNS address); give a URL whose host resolves" },
    ]);
  });

  it("lists and deletes webhooks per account", async () => {
    const other = await started.subscribe("PRO");
    expect((await call("GET", "/webhooks", undefined, other.headers)).json().data.webhooks).toEqual([]);
    const hooks = (await call("GET", "/webhooks")).json().data.webhooks;
    expect(hooks).toHaveLength(1);
    expect((await call("DELETE", `/webhooks/${hooks[0].id}`, undefined, other.headers)).statusCode).toBe(404);
    expect((await call("DELETE", `/webhooks/${hooks[0].id}`)).statusCode).toBe(204);
    expect((await call("GET", `/webhooks/${hooks[0].id}`)).statusCode).toBe(404);
  });
});
