import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smtpDeliver, SmtpCapture } from "@apiplat/testing";
import { buildServiceForTest, type ServiceUnderTest } from "./support/services.js";

/**
 * Nobody may change another person's mail state: forged bounces (DSN) and complaints (ARF) sent over SMTP to the
 * inbound listener, each shape an attacker can write, change neither a message nor the suppression list. Every
 * shape is either refused at RCPT TO (550) or taken and dropped (250); a genuine bounce still works.
 */

const VICTIM = "ceo-victim@bigcustomer.test";
const RECIPIENT = "attacker-inbox@example.org";
const FEEDBACK = "fbl@bounces.mail.api.local";

let service: ServiceUnderTest;
let relay: SmtpCapture;
let sent: { id: string; returnPath: string };

const inboundPort = () => (service.app as unknown as { emailDelivery: { inbound: { port: number } } }).emailDelivery.inbound.port;
const api = (method: "GET" | "POST", url: string, payload?: object) =>
  service.app.inject({ method, url, headers: service.headers, ...(payload ? { payload } : {}) });

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  relay = new SmtpCapture();
  await relay.start();
  service = await buildServiceForTest("email-sending", {
    SMTP_URL: relay.url,
    EMAIL_SECRET: "security-suite-secret-of-at-least-32-characters",
    EMAIL_INBOUND_PORT: "0",
    EMAIL_OUTBOX_DIR: mkdtempSync(path.join(tmpdir(), "forged-reports-")),
    EMAIL_POLL_MS: "25",
  });
  const res = await api("POST", "/send", { to: RECIPIENT, subject: "Hello", html: "<p>Hello</p>" });
  expect(res.statusCode, res.body).toBe(202);
  const id = res.json().data.id as string;
  const copy = await until(async () => relay.messages.find((m) => m.mailFrom.startsWith(`bounces+${id}.`)), Boolean);
  expect(copy, "the relay got the message").toBeDefined();
  sent = { id, returnPath: copy!.mailFrom };
  await until(
    async () => (await api("GET", `/messages/${id}`)).json().data.status,
    (s) => s === "sent",
  );
}, 60_000);
afterAll(async () => {
  await service?.close();
  await relay?.stop();
});

function dsn(to: string, finalRecipient: string, originalRecipient = finalRecipient): string {
  return [
    "From: MAILER-DAEMON@attacker.test",
    `To: ${to}`,
    "Subject: Undelivered Mail Returned to Sender",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
    "",
    "--b",
    "Content-Type: message/delivery-status",
    "",
    "Reporting-MTA: dns; attacker.test",
    "",
    `Final-Recipient: rfc822; ${finalRecipient}`,
    `Original-Recipient: rfc822; ${originalRecipient}`,
    "Action: failed",
    "Status: 5.1.1",
    "",
    "--b",
    "Content-Type: text/rfc822-headers",
    "",
    `Return-Path: <${sent.returnPath}>`,
    `Message-ID: <${sent.id}@mail.api.local>`,
    `X-Email-ID: ${sent.id}`,
    "",
    "--b--",
  ].join("\r\n");
}

function arf(rcptTo: string | null, quoted: string[]): string {
  return [
    "From: fbl@attacker.test",
    `To: ${FEEDBACK}`,
    "Subject: complaint",
    "MIME-Version: 1.0",
    'Content-Type: multipart/report; report-type=feedback-report; boundary="f"',
    "",
    "--f",
    "Content-Type: message/feedback-report",
    "",
    "Feedback-Type: abuse",
    "Version: 1",
    ...(rcptTo ? [`Original-Rcpt-To: <${rcptTo}>`] : []),
    "",
    "--f",
    "Content-Type: message/rfc822",
    "",
    ...quoted,
    `To: ${rcptTo ?? "undisclosed"}`,
    "Subject: Hello",
    "",
    "Hello",
    "",
    "--f--",
  ].join("\r\n");
}

const altered = (returnPath: string) => returnPath.replace(/([0-9a-f])@/, (_, c: string) => `${c === "0" ? "1" : "0"}@`);

/** Each forged shape: where it is sent, what it says, and how the listener must answer. */
const SHAPES: { name: string; rcpt: () => string; body: () => string; answer: "refused at RCPT" | "taken and dropped" }[] = [
  {
    name: "DSN for the victim at the bare message id (bounces+<id>@)",
    rcpt: () => `bounces+${sent.id}@bounces.mail.api.local`,
    body: () => dsn("x", VICTIM),
    answer: "refused at RCPT",
  },
  {
    name: "DSN at bounces@ naming the message in its headers",
    rcpt: () => "bounces@bounces.mail.api.local",
    body: () => dsn("x", VICTIM),
    answer: "refused at RCPT",
  },
  { name: "DSN at a return path with an altered HMAC", rcpt: () => altered(sent.returnPath), body: () => dsn("x", RECIPIENT), answer: "refused at RCPT" },
  {
    name: "DSN at a return path with the recipient tag of another address",
    rcpt: () => sent.returnPath.replace(/\.([0-9a-f]{8})\./, ".00000000."),
    body: () => dsn("x", RECIPIENT),
    answer: "refused at RCPT",
  },
  {
    name: "DSN at abuse@ (not the feedback-loop address)",
    rcpt: () => "abuse@bounces.mail.api.local",
    body: () => dsn("x", VICTIM),
    answer: "refused at RCPT",
  },
  {
    name: "DSN at the genuine return path naming the victim",
    rcpt: () => sent.returnPath,
    body: () => dsn(sent.returnPath, VICTIM),
    answer: "taken and dropped",
  },
  { name: "DSN at the feedback-loop address", rcpt: () => FEEDBACK, body: () => dsn(FEEDBACK, RECIPIENT), answer: "taken and dropped" },
  {
    name: "ARF naming the victim, quoting only X-Email-ID and Message-ID",
    rcpt: () => FEEDBACK,
    body: () => arf(VICTIM, [`X-Email-ID: ${sent.id}`, `Message-ID: <${sent.id}@mail.api.local>`]),
    answer: "taken and dropped",
  },
  {
    name: "ARF naming the victim, quoting the genuine return path",
    rcpt: () => FEEDBACK,
    body: () => arf(VICTIM, [`Return-Path: <${sent.returnPath}>`]),
    answer: "taken and dropped",
  },
  {
    name: "ARF with no recipient, quoting an altered return path",
    rcpt: () => FEEDBACK,
    body: () => arf(null, [`Return-Path: <${altered(sent.returnPath)}>`]),
    answer: "taken and dropped",
  },
  {
    name: "ARF for the real recipient at the bare message id (bounces+<id>@), not the feedback loop",
    rcpt: () => `bounces+${sent.id}@bounces.mail.api.local`,
    body: () => arf(RECIPIENT, [`Return-Path: <${sent.returnPath}>`]),
    answer: "refused at RCPT",
  },
  {
    name: "ARF for the real recipient at abuse@, not the feedback loop",
    rcpt: () => "abuse@bounces.mail.api.local",
    body: () => arf(RECIPIENT, [`Return-Path: <${sent.returnPath}>`]),
    answer: "refused at RCPT",
  },
  {
    name: "ARF for the real recipient sent to the return path instead of the feedback loop",
    rcpt: () => sent.returnPath,
    body: () => arf(RECIPIENT, [`Return-Path: <${sent.returnPath}>`]),
    answer: "taken and dropped",
  },
];

describe("email-sending: forged reports over SMTP", () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: ${shape.answer}, nothing changes`, async () => {
      const outcome = await smtpDeliver(inboundPort(), shape.rcpt(), shape.body());
      if (shape.answer === "refused at RCPT") expect(outcome).toEqual({ rcpt: 550, data: null });
      else expect(outcome).toEqual({ rcpt: 250, data: 250 });
      const message = (await api("GET", `/messages/${sent.id}`)).json().data;
      expect(message.status).toBe("sent");
      expect(message.events.map((e: { type: string }) => e.type)).toEqual(["queued", "sent"]);
      expect((await api("GET", "/suppressions")).json().data.suppressions).toEqual([]);
    });
  }

  it("a genuine bounce for the real recipient at its return path still suppresses it (the listener works)", async () => {
    expect(await smtpDeliver(inboundPort(), sent.returnPath, dsn(sent.returnPath, RECIPIENT))).toEqual({ rcpt: 250, data: 250 });
    const list = await until(
      async () => (await api("GET", "/suppressions")).json().data.suppressions,
      (l: unknown[]) => l.length > 0,
    );
    expect(list).toEqual([expect.objectContaining({ email: RECIPIENT, reason: "hard_bounce", message_id: sent.id })]);
  });
});
