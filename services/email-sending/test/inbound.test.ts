import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestSubscriber } from "@apiplat/testing";
import { CaptureServer, sendInbound, startEmail, waitForMessage, type EmailService } from "./helpers.js";

/** DSNs (RFC 3464) and complaint reports (RFC 5965) as real MTAs write them, received over SMTP by the inbound listener. */

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

const inboundPort = () => started.app.emailDelivery.inbound.port;

function fixture(name: string, values: { id: string; recipient: string; returnPath: string }): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")
    .replaceAll("{{ID}}", values.id)
    .replaceAll("{{RECIPIENT}}", values.recipient)
    .replaceAll("{{RETURN_PATH}}", values.returnPath)
    .replace(/\r?\n/g, "\r\n");
}

/** Sends a message and waits until the relay took it; returns what the report needs. */
async function sentMessage(recipient: string, headers = caller.headers) {
  const res = await started.app.inject({ method: "POST", url: "/send", headers, payload: { to: recipient, subject: "Hello", html: "<p>Hello there.</p>" } });
  const id = res.json().data.id as string;
  const captured = await capture.waitFor(capture.withEmailId(id));
  await waitForMessage(started, headers, id, (m) => m.status === "sent");
  return { id, recipient, returnPath: captured.from };
}

const suppressions = async () =>
  (await started.app.inject({ method: "GET", url: "/suppressions", headers: caller.headers })).json().data.suppressions as { email: string; reason: string; message_id: string }[];

describe("bounces (DSN)", () => {
  for (const [name, file, status] of [
    ["Postfix", "postfix-hard-bounce.eml", "5.1.1"],
    ["Exim", "exim-bounce.eml", "5.0.0"],
    ["Gmail", "gmail-bounce.eml", "5.1.1"],
    ["Microsoft 365", "microsoft-ndr.eml", "5.1.10"],
  ] as const) {
    it(`applies a ${name} hard bounce: message bounced, address suppressed`, async () => {
      const values = await sentMessage(`${name.toLowerCase().replace(/\W/g, "")}-gone@example.org`);
      await sendInbound(inboundPort(), values.returnPath, fixture(file, values));
      const message = await waitForMessage(started, caller.headers, values.id, (m) => m.status === "bounced");
      expect(message.events.at(-1)).toMatchObject({ type: "bounced", recipient: values.recipient, detail: { action: "failed", status, bounce_type: "hard" } });
      expect(await suppressions()).toContainEqual(expect.objectContaining({ email: values.recipient, reason: "hard_bounce", message_id: values.id }));
    });
  }

  it("marks a message delivered from a success DSN", async () => {
    const values = await sentMessage("happy@example.org");
    await sendInbound(inboundPort(), values.returnPath, fixture("postfix-success.eml", values));
    const message = await waitForMessage(started, caller.headers, values.id, (m) => m.status === "delivered");
    expect(message.events.at(-1)).toMatchObject({ type: "delivered", recipient: "happy@example.org", detail: { action: "delivered", status: "2.0.0", reporting_mta: "mx.example.org" } });
  });

  it("records a delay DSN without suppressing, and without moving a sent message back", async () => {
    const values = await sentMessage("slow@example.org");
    await sendInbound(inboundPort(), values.returnPath, fixture("postfix-delayed.eml", values));
    const message = await waitForMessage(started, caller.headers, values.id, (m) => m.events.some((e) => e.type === "deferred"));
    expect(message.status).toBe("sent");
    expect(message.events.at(-1).detail).toMatchObject({ action: "delayed", status: "4.4.1" });
    expect((await suppressions()).map((s) => s.email)).not.toContain("slow@example.org");
  });

  it("finds the message from the quoted headers when the report comes to another address", async () => {
    const values = await sentMessage("quoted@example.org");
    await sendInbound(inboundPort(), "bounces@bounces.mail.api.local", fixture("exim-bounce.eml", values));
    await waitForMessage(started, caller.headers, values.id, (m) => m.status === "bounced");
  });
});

describe("complaints (ARF)", () => {
  it("applies a feedback report with Original-Rcpt-To: complained, suppressed", async () => {
    const values = await sentMessage("angry@example.org");
    await sendInbound(inboundPort(), values.returnPath, fixture("arf-yahoo.eml", values));
    const message = await waitForMessage(started, caller.headers, values.id, (m) => m.status === "complained");
    expect(message.events.at(-1)).toMatchObject({ type: "complained", recipient: "angry@example.org", detail: { feedback_type: "abuse", user_agent: "SomeGenerator/1.0" } });
    expect(await suppressions()).toContainEqual(expect.objectContaining({ email: "angry@example.org", reason: "complaint" }));
  });

  it("applies a Microsoft JMRP report whose recipient is redacted, to the message's one recipient", async () => {
    const values = await sentMessage("hotmail-reader@example.org");
    await sendInbound(inboundPort(), "fbl@bounces.mail.api.local", fixture("arf-microsoft-jmrp.eml", values));
    const message = await waitForMessage(started, caller.headers, values.id, (m) => m.status === "complained");
    expect(message.events.at(-1)).toMatchObject({ recipient: "hotmail-reader@example.org", detail: { user_agent: "Hotmail FBL" } });
    const refused = await started.app.inject({ method: "POST", url: "/send", headers: caller.headers, payload: { to: "hotmail-reader@example.org", subject: "x", html: "<p>x</p>" } });
    expect(refused.json().error.details).toEqual([{ field: "to", issue: "hotmail-reader@example.org: suppressed (complaint)" }]);
  });
});

describe("the listener", () => {
  it("refuses mail for addresses that are not a return path or the feedback address", async () => {
    await expect(sendInbound(inboundPort(), "ceo@mail.api.local", "Subject: hi\r\n\r\nhello\r\n")).rejects.toThrow(/550/);
  });
});
