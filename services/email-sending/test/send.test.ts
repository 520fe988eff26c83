import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSubscriber } from "@apiplat/testing";
import { CaptureServer, parse, startEmail, waitForMessage, type EmailService } from "./helpers.js";

let capture: CaptureServer;
let started: EmailService;
let caller: TestSubscriber;

beforeAll(async () => {
  capture = new CaptureServer();
  await capture.start();
  started = await startEmail(capture);
  caller = await started.subscribe("PRO");
});
afterAll(async () => {
  await started.close();
  await capture.stop();
});

const send = (payload: object, headers: Record<string, string> = caller.headers) => started.app.inject({ method: "POST", url: "/send", headers, payload });

describe("POST /send", () => {
  it("accepts with 202, stores, and delivers through SMTP with the right MIME", async () => {
    const res = await send({ to: "Ada Lovelace <ada@example.com>", subject: "Hello", html: "<h1>Hi</h1><p>Read <a href=\"https://example.com/doc\">the doc</a>.</p>" });
    expect(res.statusCode).toBe(202);
    const data = res.json().data;
    expect(data).toMatchObject({ status: "queued", to: ["ada@example.com"], rejected: [], send_at: null });
    expect(data.id).toMatch(/^msg_[0-9a-f]{24}$/);
    const captured = await capture.waitFor(capture.withEmailId(data.id));
    expect(captured.to).toEqual(["ada@example.com"]);
    expect(captured.from).toBe(`bounces+${data.id}@bounces.mail.api.local`);
    const mail = await parse(captured.raw);
    expect(mail.subject).toBe("Hello");
    expect(mail.from?.value[0]).toEqual({ name: "API Platform", address: "no-reply@mail.api.local" });
    expect(mail.messageId).toBe(`<${data.id}@mail.api.local>`);
    expect(mail.html).toContain("<h1>Hi</h1>");
    expect(mail.text).toContain("the doc [https://example.com/doc]");
    const message = await waitForMessage(started, caller.headers, data.id, (m) => m.status === "sent");
    expect(message.events.map((e: { type: string }) => e.type)).toEqual(["queued", "sent"]);
  });
});
