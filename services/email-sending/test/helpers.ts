import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import nodemailer from "nodemailer";
import { startService, type StartedService, type StartServiceOptions, type TestSubscriber } from "@apiplat/testing";
import { afterAll, beforeAll } from "vitest";
import service, { type EmailInject } from "../src/service.js";
import type { EmailSettings } from "../src/settings.js";

export const TEST_SECRET = "test-secret-of-at-least-thirty-two-characters";

export interface Captured {
  from: string;
  to: string[];
  raw: Buffer;
  /** NOTIFY= of each RCPT TO and RET/ENVID of MAIL FROM, as the client sent them. */
  rcptArgs: (Record<string, string> | false)[];
  dsn: { ret: string | null; envid: string | null } | undefined;
  receivedAt: number;
}

/** How the capture server answers a message: accept it, or refuse with an SMTP reply. */
export type Verdict = { accept: true } | { code: number; message: string };

/** A real SMTP server on loopback that keeps every message it accepts, as the relay would get it. */
export class CaptureServer {
  readonly messages: Captured[] = [];
  private server: SMTPServer | null = null;
  port = 0;
  /** Decides per message; accepts by default. */
  verdict: (envelope: { to: string[] }) => Verdict = () => ({ accept: true });
  /** Refuses these recipients at RCPT TO with the given reply. */
  refuseRecipients = new Map<string, { code: number; message: string }>();
  private waiters: (() => void)[] = [];
  /** Milliseconds to wait before answering each message: a slow relay. */
  delayMs = 0;
  /** Hold the answer to every message until the client goes away (a relay that hangs mid-transaction). */
  stall = false;
  /** Messages whose data arrived while stalling (never accepted). */
  stalled = 0;

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      hideDSN: false,
      logger: false,
      size: 40 * 1024 * 1024,
      onRcptTo: (address, _session, callback) => {
        const refusal = this.refuseRecipients.get(address.address.toLowerCase());
        if (refusal) return callback(Object.assign(new Error(refusal.message), { responseCode: refusal.code }));
        callback();
      },
      onData: (stream, session: SMTPServerSession, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          if (this.stall) {
            this.stalled++;
            return;
          }
          const to = session.envelope.rcptTo.map((r) => r.address);
          const verdict = this.verdict({ to });
          if (!("accept" in verdict)) return callback(Object.assign(new Error(verdict.message), { responseCode: verdict.code }));
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to,
            raw: Buffer.concat(chunks),
            rcptArgs: session.envelope.rcptTo.map((r) => r.args as Record<string, string> | false),
            dsn: session.envelope.dsn,
            receivedAt: Date.now(),
          });
          for (const w of this.waiters.splice(0)) w();
          if (this.delayMs > 0) setTimeout(() => callback(), this.delayMs);
          else callback();
        });
      },
    });
    // A sender killed mid-transaction resets its connection; smtp-server emits that on the server.
    this.server.on("error", () => {});
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", () => resolve()));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Waits until a message matching `match` arrived. */
  async waitFor(match: (m: Captured) => boolean, timeoutMs = 10_000): Promise<Captured> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error("no such message reached the capture server in time");
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  withEmailId(id: string): (m: Captured) => boolean {
    return (m) => m.raw.toString("latin1").toLowerCase().includes(`x-email-id: ${id}`);
  }

  async stop(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

export const parse = (raw: Buffer): Promise<ParsedMail> => simpleParser(raw);

export type EmailService = StartedService;

/** The service on real PostgreSQL and Redis, sending to `capture`, its inbound listener on an ephemeral loopback port. */
export async function startEmail(
  capture: CaptureServer,
  settings: Partial<EmailSettings> = {},
  options: StartServiceOptions<EmailSettings, EmailInject> = {},
): Promise<EmailService> {
  return startService(service, {
    ...options,
    env: { EMAIL_SECRET: TEST_SECRET, ...options.env },
    settings: {
      smtpUrl: capture.url,
      inboundPort: 0,
      inboundHost: "127.0.0.1",
      publicBaseUrl: "http://127.0.0.1:3011",
      outboxDir: mkdtempSync(path.join(tmpdir(), "email-outbox-")),
      pollMs: 25,
      retryBaseMs: 50,
      ...settings,
    },
  });
}

export interface EmailUnderTest {
  /** The relay the service sends to. */
  capture: CaptureServer;
  started: EmailService;
  /** A new account on PRO, with its key's headers. */
  caller: TestSubscriber;
}

/**
 * The test file's service: before its tests, a capture server and the service sending to it (as startEmail) with a
 * caller on PRO; after them, both closed. The fields are set once the file's first beforeAll has run.
 */
export function emailUnderTest(settings: Partial<EmailSettings> = {}, options: StartServiceOptions<EmailSettings, EmailInject> = {}): EmailUnderTest {
  const email = {} as EmailUnderTest;
  beforeAll(async () => {
    email.capture = new CaptureServer();
    await email.capture.start();
    email.started = await startEmail(email.capture, settings, options);
    email.caller = await email.started.subscribe("PRO");
  });
  afterAll(async () => {
    await email.started.close();
    await email.capture.stop();
  });
  return email;
}

/** POST /contacts: `address` as an opt-in contact of the account whose gateway headers these are. */
export function addContact(started: EmailService, headers: Record<string, string>, address: string) {
  return started.app.inject({
    method: "POST",
    url: "/contacts",
    headers,
    payload: { email: address, consent_at: "2026-01-02T03:04:05Z", source: "signup form" },
  });
}

/** Polls GET /messages/{id} until `predicate` holds. */
export async function waitForMessage(
  started: EmailService,
  headers: Record<string, string>,
  id: string,
  predicate: (message: { status: string; events: { type: string; detail: Record<string, unknown>; recipient: string | null }[] }) => boolean,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await started.app.inject({ method: "GET", url: `/messages/${id}`, headers });
    const message = res.json().data;
    if (message && predicate(message)) return message;
    if (Date.now() > deadline) throw new Error(`message ${id} did not reach the expected state: ${JSON.stringify(message)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Sends raw mail to the service's inbound listener over SMTP, as a remote MTA would. */
export async function sendInbound(port: number, to: string, raw: string): Promise<void> {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
  try {
    await transport.sendMail({ envelope: { from: "", to: [to] }, raw });
  } finally {
    transport.close();
  }
}
