import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSubscriber } from "@apiplat/testing";
import { CaptureServer, startEmail, waitForMessage, type EmailService } from "./helpers.js";

/** The embedded start (`npm start` without DATABASE_URL): the same queue SQL on PGlite, FOR UPDATE SKIP LOCKED included. */

let capture: CaptureServer;
let started: EmailService;
let caller: TestSubscriber;

beforeAll(async () => {
  capture = new CaptureServer();
  await capture.start();
  started = await startEmail(capture, {}, { embedded: true });
  caller = await started.subscribe("ULTRA");
});
afterAll(async () => {
  await started.close();
  await capture.stop();
});

describe("on the embedded database", () => {
  it("accepts, queues, delivers, retries and records events", async () => {
    let refusals = 1;
    capture.verdict = () => (refusals-- > 0 ? { code: 421, message: "421 4.7.0 try again" } : { accept: true });
    const res = await started.app.inject({ method: "POST", url: "/send", headers: caller.headers, payload: { to: "ada@example.com", subject: "embedded", html: "<p>x</p>", attachments: [{ filename: "a.txt", content: "aGVsbG8=" }] } });
    expect(res.statusCode).toBe(202);
    const id = res.json().data.id;
    await capture.waitFor(capture.withEmailId(id));
    const message = await waitForMessage(started, caller.headers, id, (m) => m.status === "sent");
    expect(message.events.map((e: { type: string }) => e.type)).toEqual(["queued", "deferred", "sent"]);
  });
});
