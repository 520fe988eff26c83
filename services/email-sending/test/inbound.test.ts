import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSettings } from "../src/settings.js";
import { emailUnderTest, sendInbound, TEST_SECRET, waitForMessage } from "./helpers.js";

/** DSNs (RFC 3464) and complaint reports (RFC 5965) as real MTAs write them, received over SMTP by the inbound listener. */

const email = emailUnderTest();

const inboundPort = () => email.started.app.emailDelivery.inbound.port;

function fixture(name: string, values: { id: string; recipient: string; returnPath: string }): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8")
    .replaceAll("{{ID}}", values.id)
    .replaceAll("{{RECIPIENT}}", values.recipient)
    .replaceAll("{{RETURN_PATH}}", values.returnPath)
    .replace(/\r?\n/g, "\r\n");
}

/** Sends a message and waits until the relay took it; returns what the report needs. */
async function sentMessage(recipient: string, headers = email.caller.headers) {
  const res = await email.started.app.inject({
    method: "POST",
    url: "/send",
    headers,
    payload: { to: recipient, subject: "Hello", html: "<p>Hello there.</p>" },
  });
  const id = res.json().data.id as string;
  const captured = await email.capture.waitFor(email.capture.withEmailId(id));
  await waitForMessage(email.started, headers, id, (m) => m.status === "sent");
  return { id, recipient, returnPath: captured.from };
}

const suppressions = async () =>
  (await email.started.app.inject({ method: "GET", url: "/suppressions", headers: email.caller.headers })).json().data.suppressions as {
    email: string;
    reason: string;
    message_id: string;
  }[];

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
      const message = await waitForMessage(email.started, email.caller.headers, values.id, (m) => m.status === "bounced");
      expect(message.events.at(-1)).toMatchObject({ type: "bounced", recipient: values.recipient, detail: { action: "failed", status, bounce_type: "hard" } });
      expect(await suppressions()).toContainEqual(expect.objectContaining({ email: values.recipient, reason: "hard_bounce", message_id: values.id }));
    });
  }

  it("marks a message delivered from a success DSN", async () => {
    const values = await sentMessage("happy@example.org");
    await sendInbound(inboundPort(), values.returnPath, fixture("postfix-success.eml", values));
    const message = await waitForMessage(email.started, email.caller.headers, values.id, (m) => m.status === "delivered");
    expect(message.events.at(-1)).toMatchObject({
      type: "delivered",
      recipient: "happy@example.org",
      detail: { action: "delivered", status: "2.0.0", reporting_mta: "mx.example.org" },
    });
  });

  it("records a delay DSN without suppressing, and without moving a sent message back", async () => {
    const values = await sentMessage("slow@example.org");
    await sendInbound(inboundPort(), values.returnPath, fixture("postfix-delayed.eml", values));
    const message = await waitForMessage(email.started, email.caller.headers, values.id, (m) => m.events.some((e) => e.type === "deferred"));
    expect(message.status).toBe("sent");
    expect(message.events.at(-1).detail).toMatchObject({ action: "delayed", status: "4.4.1" });
    expect((await suppressions()).map((s) => s.email)).not.toContain("slow@example.org");
  });

  it("applies a bounce to the one recipient its return path was made for, on a message to several", async () => {
    const res = await email.started.app.inject({
      method: "POST",
      url: "/send",
      headers: email.caller.headers,
      payload: { to: ["stays@example.org", "leaves@example.org"], subject: "Hello", html: "<p>x</p>" },
    });
    const id = res.json().data.id as string;
    await waitForMessage(email.started, email.caller.headers, id, (m) => m.status === "sent");
    const copies = email.capture.messages.filter(email.capture.withEmailId(id));
    const returnPath = copies.find((c) => c.to[0] === "leaves@example.org")!.from;
    expect(copies.find((c) => c.to[0] === "stays@example.org")!.from).not.toBe(returnPath);
    await sendInbound(inboundPort(), returnPath, fixture("postfix-hard-bounce.eml", { id, recipient: "leaves@example.org", returnPath }));
    const message = await waitForMessage(email.started, email.caller.headers, id, (m) => m.events.some((e) => e.type === "bounced"));
    expect(message.status).toBe("sent");
    expect((await suppressions()).map((s) => s.email)).toContain("leaves@example.org");
    expect((await suppressions()).map((s) => s.email)).not.toContain("stays@example.org");
  });
});

/** A DSN as an attacker writes it: a hard bounce for `victim`, sent to whatever return path they know or guess. */
function forgedDsn(id: string, victim: string, returnPath: string): string {
  return [
    "From: MAILER-DAEMON@attacker.test",
    `To: ${returnPath}`,
    "Subject: Undelivered Mail Returned to Sender",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
    "",
    "--b1",
    "Content-Type: text/plain",
    "",
    `${victim}: 550 5.1.1 user unknown`,
    "",
    "--b1",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; attacker.test",
    "",
    `Final-Recipient: rfc822; ${victim}`,
    `Original-Recipient: rfc822; ${victim}`,
    "Action: failed",
    "Status: 5.1.1",
    "Diagnostic-Code: smtp; 550 5.1.1 user unknown",
    "",
    "--b1",
    "Content-Type: text/rfc822-headers",
    "",
    `Message-ID: <${id}@mail.api.local>`,
    `X-Email-ID: ${id}`,
    "",
    "--b1--",
    "",
  ].join("\r\n");
}

/** A complaint report as an attacker writes it, naming `victim` and quoting whatever headers they have. */
function forgedComplaint(victim: string, quoted: string[]): string {
  return [
    "From: fbl@attacker.test",
    "To: fbl@bounces.mail.api.local",
    "Subject: complaint",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="b2"',
    "",
    "--b2",
    "Content-Type: text/plain",
    "",
    "This is an abuse report.",
    "",
    "--b2",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: abuse",
    "User-Agent: Forger/1.0",
    "Version: 1",
    `Original-Rcpt-To: <${victim}>`,
    "",
    "--b2",
    "Content-Type: message/rfc822",
    "",
    ...quoted,
    `To: ${victim}`,
    "Subject: Hello",
    "",
    "Hello there.",
    "",
    "--b2--",
    "",
  ].join("\r\n");
}

describe("forged reports change nothing", () => {
  const VICTIM = "ceo-victim@bigcustomer.test";

  async function untouched(id: string) {
    await new Promise((r) => setTimeout(r, 300));
    const message = await waitForMessage(email.started, email.caller.headers, id, () => true);
    expect(message.status).toBe("sent");
    expect(message.events.map((e: { type: string }) => e.type)).toEqual(["queued", "sent"]);
    expect((await suppressions()).map((s) => s.email)).not.toContain(VICTIM);
  }

  it("a DSN naming the victim at the message's bare id (the issue's attack) is refused at RCPT with 550", async () => {
    const values = await sentMessage("attacker-inbox@example.org");
    await expect(sendInbound(inboundPort(), `bounces+${values.id}@bounces.mail.api.local`, forgedDsn(values.id, VICTIM, "x"))).rejects.toThrow(/550/);
    await untouched(values.id);
  });

  it("a return path with an altered HMAC, or one moved to another message, is refused at RCPT with 550", async () => {
    const values = await sentMessage("attacker-inbox2@example.org");
    const other = await sentMessage("someone-else@example.org");
    const altered = values.returnPath.replace(/([0-9a-f])@/, (_, c: string) => `${c === "0" ? "1" : "0"}@`);
    await expect(sendInbound(inboundPort(), altered, forgedDsn(values.id, VICTIM, altered))).rejects.toThrow(/550/);
    const moved = values.returnPath.replace(values.id, other.id);
    await expect(sendInbound(inboundPort(), moved, forgedDsn(other.id, "someone-else@example.org", moved))).rejects.toThrow(/550/);
    await untouched(values.id);
    await untouched(other.id);
  });

  it("a DSN at a genuine return path that names another recipient is taken (250) and dropped", async () => {
    const values = await sentMessage("attacker-inbox3@example.org");
    await sendInbound(inboundPort(), values.returnPath, forgedDsn(values.id, VICTIM, values.returnPath));
    await untouched(values.id);
    expect((await suppressions()).map((s) => s.email)).not.toContain("attacker-inbox3@example.org");
  });

  it("a complaint naming the victim is dropped, whether it quotes only X-Email-ID or the attacker's own genuine return path", async () => {
    const values = await sentMessage("attacker-inbox4@example.org");
    await sendInbound(
      inboundPort(),
      "fbl@bounces.mail.api.local",
      forgedComplaint(VICTIM, [`X-Email-ID: ${values.id}`, `Message-ID: <${values.id}@mail.api.local>`]),
    );
    await sendInbound(
      inboundPort(),
      "fbl@bounces.mail.api.local",
      forgedComplaint(VICTIM, [`Return-Path: <${values.returnPath}>`, `X-Email-ID: ${values.id}`]),
    );
    await untouched(values.id);
    expect((await suppressions()).map((s) => s.email)).not.toContain("attacker-inbox4@example.org");
  });

  it("a genuine complaint sent to the return path instead of the feedback-loop address is dropped", async () => {
    const values = await sentMessage("misrouted@example.org");
    await sendInbound(inboundPort(), values.returnPath, fixture("arf-yahoo.eml", values));
    await new Promise((r) => setTimeout(r, 300));
    const message = await waitForMessage(email.started, email.caller.headers, values.id, () => true);
    expect(message.status).toBe("sent");
    expect((await suppressions()).map((s) => s.email)).not.toContain("misrouted@example.org");
  });
});

describe("complaints (ARF)", () => {
  it("applies a feedback report with Original-Rcpt-To: complained, suppressed", async () => {
    const values = await sentMessage("angry@example.org");
    await sendInbound(inboundPort(), "fbl@bounces.mail.api.local", fixture("arf-yahoo.eml", values));
    const message = await waitForMessage(email.started, email.caller.headers, values.id, (m) => m.status === "complained");
    expect(message.events.at(-1)).toMatchObject({
      type: "complained",
      recipient: "angry@example.org",
      detail: { feedback_type: "abuse", user_agent: "SomeGenerator/1.0" },
    });
    expect(await suppressions()).toContainEqual(expect.objectContaining({ email: "angry@example.org", reason: "complaint" }));
  });

  it("applies a Microsoft JMRP report whose recipient is redacted, to the recipient its quoted return path was made for", async () => {
    const values = await sentMessage("hotmail-reader@example.org");
    await sendInbound(inboundPort(), "fbl@bounces.mail.api.local", fixture("arf-microsoft-jmrp.eml", values));
    const message = await waitForMessage(email.started, email.caller.headers, values.id, (m) => m.status === "complained");
    expect(message.events.at(-1)).toMatchObject({ recipient: "hotmail-reader@example.org", detail: { user_agent: "Hotmail FBL" } });
    const refused = await email.started.app.inject({
      method: "POST",
      url: "/send",
      headers: email.caller.headers,
      payload: { to: "hotmail-reader@example.org", subject: "x", html: "<p>x</p>" },
    });
    expect(refused.json().error.details).toEqual([{ field: "to", issue: "hotmail-reader@example.org: suppressed (complaint)" }]);
  });
});

describe("the listener", () => {
  it("refuses mail for addresses that are not a return path or the feedback address", async () => {
    await expect(sendInbound(inboundPort(), "ceo@mail.api.local", "Subject: hi\r\n\r\nhello\r\n")).rejects.toThrow(/550/);
    await expect(sendInbound(inboundPort(), "bounces@bounces.mail.api.local", "Subject: hi\r\n\r\nhello\r\n")).rejects.toThrow(/550/);
    await expect(sendInbound(inboundPort(), "abuse@bounces.mail.api.local", "Subject: hi\r\n\r\nhello\r\n")).rejects.toThrow(/550/);
  });

  it("listens on loopback unless configured, and takes complaints at fbl@bounces.<default domain> unless configured", () => {
    expect(readSettings({ EMAIL_SECRET: TEST_SECRET })).toMatchObject({ inboundHost: "127.0.0.1", feedbackAddress: "fbl@bounces.mail.api.local" });
    expect(readSettings({ EMAIL_SECRET: TEST_SECRET, EMAIL_INBOUND_HOST: "0.0.0.0", EMAIL_FEEDBACK_ADDRESS: "FBL@Example.com" })).toMatchObject({
      inboundHost: "0.0.0.0",
      feedbackAddress: "fbl@example.com",
    });
  });
});
