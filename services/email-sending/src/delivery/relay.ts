import nodemailer from "nodemailer";
import type { MailOptions } from "nodemailer/lib/smtp-transport/index.js";
import type { SmtpFailure } from "../domain/smtp-retry.js";

/** The SMTP relay messages leave through: nodemailer's pooled SMTP transport. */

interface RejectedRecipient {
  email: string;
  responseCode?: number;
  response: string;
}

interface RelayAccepted {
  accepted: string[];
  /** Recipients the relay refused while taking the message for the others. */
  rejected: RejectedRecipient[];
  response: string;
}

export class RelayError extends Error implements SmtpFailure {
  constructor(
    message: string,
    readonly responseCode: number | undefined,
    readonly code: string | undefined,
    readonly rejected: RejectedRecipient[],
  ) {
    super(message);
  }
}

export interface MailRelay {
  /** Where mail goes, for logs, /ready and event details (never with credentials). */
  readonly description: string;
  readonly isLocalSink: boolean;
  send(mail: MailOptions): Promise<RelayAccepted>;
  verify(): Promise<void>;
  close(): void;
}

interface NodemailerError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  rejectedErrors?: { recipient?: string; responseCode?: number; response?: string }[];
}

function rejectedOf(errors: NodemailerError["rejectedErrors"]): RejectedRecipient[] {
  return (errors ?? []).map((e) => ({ email: String(e.recipient ?? "").toLowerCase(), responseCode: e.responseCode, response: e.response ?? "" }));
}

function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.toString().replace(/\/$/, "");
}

interface SmtpRelayOptions {
  url: string;
  connections: number;
  /** The local sink: no STARTTLS on loopback. */
  isLocalSink?: boolean;
  description?: string;
}

export function smtpRelay(options: SmtpRelayOptions): MailRelay {
  const transport = nodemailer.createTransport({
    url: options.url,
    pool: true,
    maxConnections: options.connections,
    maxMessages: Infinity,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
    ignoreTLS: options.isLocalSink ?? false,
  } as never);
  return {
    description: options.description ?? withoutCredentials(options.url),
    isLocalSink: options.isLocalSink ?? false,
    async send(mail) {
      try {
        const info = await transport.sendMail(mail);
        const rejectedErrors = (info as unknown as { rejectedErrors?: NodemailerError["rejectedErrors"] }).rejectedErrors;
        return {
          accepted: (info.accepted as string[]).map((a) => String(a).toLowerCase()),
          rejected: rejectedOf(rejectedErrors),
          response: info.response,
        };
      } catch (error) {
        const e = error as NodemailerError;
        throw new RelayError(e.response ?? e.message, e.responseCode, e.code, rejectedOf(e.rejectedErrors));
      }
    },
    async verify() {
      await transport.verify();
    },
    close() {
      transport.close();
    },
  };
}
