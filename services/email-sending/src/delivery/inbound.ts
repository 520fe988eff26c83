import type { AddressInfo } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Database } from "@apiplat/storage";
import {
  bounceTypeOf,
  complainedRecipient,
  interpretReport,
  messageIdFromReport,
  messageIdFromVerp,
  type ParsedReport,
} from "../domain/reports.js";
import { findMessageById, type MessageRow } from "../store/messages.js";
import type { EventRecorder } from "./events.js";

/** Reports are small; anything larger than this is not a bounce or a complaint. */
export const INBOUND_MAX_BYTES = 10 * 1024 * 1024;

/** Local parts the listener takes mail for: VERP return paths and the feedback-loop address. */
export function isReportAddress(address: string): boolean {
  return /^(bounces(\+[^@]*)?|fbl|abuse|complaints)@/i.test(address);
}

export async function parseReport(raw: Buffer): Promise<ParsedReport> {
  const mail = await simpleParser(raw, { keepDeliveryStatus: true });
  const contentType = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  return {
    reportType: contentType?.params?.["report-type"]?.toLowerCase() ?? null,
    subject: mail.subject ?? "",
    text: mail.text ?? "",
    parts: mail.attachments.map((a) => ({ contentType: a.contentType.toLowerCase(), content: a.content.toString("utf8") })),
    raw: raw.toString("latin1"),
  };
}

/** Applies a DSN or a complaint to the message it speaks of, and to the suppression list. */
export class ReportApplier {
  constructor(
    private readonly db: Database,
    private readonly events: EventRecorder,
    private readonly log: FastifyBaseLogger,
  ) {}

  async apply(raw: Buffer, envelopeRecipients: string[]): Promise<string> {
    const report = await parseReport(raw);
    const verpId = envelopeRecipients.map(messageIdFromVerp).find((id) => id !== null) ?? null;
    const messageId = verpId ?? messageIdFromReport(report);
    const message = messageId ? await findMessageById(this.db, messageId) : null;
    if (!message) {
      this.log.info({ message_id: messageId }, "inbound report for no known message: dropped");
      return "no-message";
    }
    const interpreted = interpretReport(report);
    const base = { messageId: message.id, accountId: message.account_id };
    switch (interpreted.kind) {
      case "dsn":
        for (const r of interpreted.recipients) await this.applyRecipientStatus(message, r, interpreted.reportingMta);
        return "dsn";
      case "complaint": {
        const recipient = complainedRecipient(report, interpreted.recipient, message.recipients);
        await this.events.record({ ...base, type: "complained", recipient, detail: { feedback_type: interpreted.feedbackType, user_agent: interpreted.userAgent } });
        if (recipient) await this.events.suppress(message.account_id, recipient, "complaint", `${interpreted.feedbackType} report`, message.id);
        return "complaint";
      }
      case "unstructured_bounce": {
        const recipient = message.recipients.length === 1 ? message.recipients[0] : null;
        const bounceType = interpreted.permanent ? "hard" : "soft";
        await this.events.record({ ...base, type: "bounced", recipient, detail: { bounce_type: bounceType, diagnostic: interpreted.diagnostic, source: "bounce message" } });
        if (recipient && interpreted.permanent) await this.events.suppress(message.account_id, recipient, "hard_bounce", interpreted.diagnostic, message.id);
        return "bounce";
      }
      default:
        this.log.info({ message_id: message.id }, "inbound mail at the return path is neither a DSN nor a complaint: dropped");
        return "unknown";
    }
  }

  private async applyRecipientStatus(message: MessageRow, r: { email: string; action: string; status: string | null; diagnostic: string | null; remoteMta: string | null }, reportingMta: string | null) {
    const base = { messageId: message.id, accountId: message.account_id, recipient: r.email };
    // One recipient's bounce or delay is the message's status only when it has no other recipient.
    const keepStatus = message.recipients.length > 1 && r.action !== "delivered" && r.action !== "relayed" && r.action !== "expanded";
    const detail = { action: r.action, status: r.status, diagnostic: r.diagnostic, remote_mta: r.remoteMta, reporting_mta: reportingMta };
    if (r.action === "failed") {
      const bounceType = bounceTypeOf(r);
      await this.events.record({ ...base, type: "bounced", detail: { ...detail, bounce_type: bounceType } }, undefined, keepStatus);
      if (bounceType === "hard") await this.events.suppress(message.account_id, r.email, "hard_bounce", r.diagnostic ?? r.status ?? "failed", message.id);
    } else if (r.action === "delayed") {
      await this.events.record({ ...base, type: "deferred", detail }, undefined, keepStatus);
    } else if (r.action === "delivered" || r.action === "relayed" || r.action === "expanded") {
      await this.events.record({ ...base, type: "delivered", detail });
    }
  }
}

/** The inbound SMTP listener on EMAIL_INBOUND_PORT: receives DSNs and complaint reports for the bounce domains. */
export class InboundListener {
  private server: SMTPServer | null = null;
  port = 0;

  constructor(
    private readonly applier: ReportApplier,
    private readonly host: string,
    private readonly requestedPort: number,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH"],
      size: INBOUND_MAX_BYTES,
      logger: false,
      banner: "bounce and feedback-loop receiver",
      onRcptTo: (address, _session, callback) => {
        if (isReportAddress(address.address)) callback();
        else callback(Object.assign(new Error("550 5.1.1 no such mailbox here: this host only takes bounces and complaints"), { responseCode: 550 }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
            callback(Object.assign(new Error("552 5.3.4 report too large"), { responseCode: 552 }));
            return;
          }
          const recipients = session.envelope.rcptTo.map((r) => r.address);
          this.applier.apply(Buffer.concat(chunks), recipients).then(
            () => callback(),
            (error) => {
              this.log.error({ err: error }, "applying an inbound report failed");
              callback(Object.assign(new Error("451 4.3.0 try again later"), { responseCode: 451 }));
            },
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(this.requestedPort, this.host, () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
    this.log.info({ port: this.port, host: this.host }, "inbound SMTP listener for bounces and complaints is up");
  }

  listening(): boolean {
    return this.server?.server.listening ?? false;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
