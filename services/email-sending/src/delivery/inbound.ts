import type { FastifyBaseLogger } from "fastify";
import { simpleParser } from "mailparser";
import type { Database } from "@apiplat/storage";
import { addressKey } from "../domain/addresses.js";
import { bounceTypeOf, interpretReport, returnPathsIn, type ParsedReport, type RecipientStatus } from "../domain/reports.js";
import { ReturnPaths } from "../domain/verp.js";
import { findMessageById, type MessageRow } from "../store/messages.js";
import type { EventRecorder } from "./events.js";
import { SmtpReceiver, smtpReply } from "./smtp-receiver.js";

/** Reports are small; anything larger than this is not a bounce or a complaint. */
const INBOUND_MAX_BYTES = 10 * 1024 * 1024;

async function parseReport(raw: Buffer): Promise<ParsedReport> {
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

/** One recipient of one message, as a genuine return path names them. */
interface Addressee {
  message: MessageRow;
  recipient: string;
}

/**
 * Applies a DSN or a complaint to the message and the recipient it is about, and to the suppression list. Nothing is
 * believed on its word: a DSN counts only at a return path we made for that recipient of that message (VERP with an
 * HMAC) and only for the recipient that return path names; a complaint counts only at the feedback-loop address and
 * only when the original message it quotes carries such a return path for the complained recipient. Everything else
 * is logged and dropped without touching any state.
 */
export class ReportApplier {
  constructor(
    private readonly db: Database,
    private readonly events: EventRecorder,
    private readonly returnPaths: ReturnPaths,
    private readonly feedbackAddress: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** RCPT TO: the feedback-loop address, or a genuine return path of a message we sent. */
  async accepts(address: string): Promise<boolean> {
    return this.isFeedbackAddress(address) || (await this.addressee(address)) !== null;
  }

  isFeedbackAddress(address: string): boolean {
    return addressKey(address) === this.feedbackAddress;
  }

  /** The message and recipient a return path was made for, or null when it is not one of ours or not genuine. */
  async addressee(returnPath: string): Promise<Addressee | null> {
    const verp = ReturnPaths.parse(returnPath);
    if (!verp) return null;
    const message = await findMessageById(this.db, verp.messageId);
    if (!message || message.attempts === 0) return null;
    const recipient = this.returnPaths.recipientOf(verp, message.recipients);
    return recipient ? { message, recipient } : null;
  }

  async apply(raw: Buffer, envelopeRecipients: string[]): Promise<string> {
    const report = await parseReport(raw);
    if (envelopeRecipients.some((r) => this.isFeedbackAddress(r))) return this.applyComplaint(report);
    for (const returnPath of new Set(envelopeRecipients.map(addressKey))) {
      const addressee = await this.addressee(returnPath);
      if (addressee) return this.applyBounce(report, addressee);
    }
    this.log.warn({ rcpt: envelopeRecipients }, "inbound report at no genuine return path: dropped");
    return "dropped";
  }

  private async applyBounce(report: ParsedReport, { message, recipient }: Addressee): Promise<string> {
    const interpreted = interpretReport(report);
    switch (interpreted.kind) {
      case "dsn": {
        const about = interpreted.recipients.filter((r) => r.email === recipient || r.originalRecipient === recipient);
        const others = interpreted.recipients.filter((r) => !about.includes(r)).map((r) => r.email);
        if (others.length > 0)
          this.log.warn({ message_id: message.id, reported: others }, "DSN names recipients its return path was not made for: those dropped");
        for (const r of about) await this.applyRecipientStatus(message, { ...r, email: recipient }, interpreted.reportingMta);
        return about.length > 0 ? "dsn" : "dropped";
      }
      case "unstructured_bounce": {
        const base = { messageId: message.id, accountId: message.account_id, recipient };
        const bounceType = interpreted.permanent ? "hard" : "soft";
        await this.events.record(
          { ...base, type: "bounced", detail: { bounce_type: bounceType, diagnostic: interpreted.diagnostic, source: "bounce message" } },
          undefined,
          message.recipients.length > 1,
        );
        if (interpreted.permanent) await this.events.suppress(message.account_id, recipient, "hard_bounce", interpreted.diagnostic, message.id);
        return "bounce";
      }
      case "complaint":
        this.log.warn({ message_id: message.id }, "complaint report at a return path (complaints are taken only at the feedback-loop address): dropped");
        return "dropped";
      default:
        this.log.info({ message_id: message.id }, "inbound mail at the return path is neither a DSN nor a complaint: dropped");
        return "dropped";
    }
  }

  private async applyComplaint(report: ParsedReport): Promise<string> {
    const interpreted = interpretReport(report);
    if (interpreted.kind !== "complaint") {
      this.log.warn("mail at the feedback-loop address that is not a complaint report: dropped");
      return "dropped";
    }
    const addressees: Addressee[] = [];
    for (const returnPath of returnPathsIn(report)) {
      const found = await this.addressee(returnPath);
      if (found && !addressees.some((a) => a.message.id === found.message.id && a.recipient === found.recipient)) addressees.push(found);
    }
    if (addressees.length !== 1) {
      this.log.warn({ genuine_return_paths: addressees.length }, "complaint without exactly one genuine return path of ours in the original: dropped");
      return "dropped";
    }
    const { message, recipient } = addressees[0];
    if (interpreted.recipient && interpreted.recipient !== recipient) {
      this.log.warn({ message_id: message.id }, "complaint names a recipient other than the one its return path was made for: dropped");
      return "dropped";
    }
    const detail = { feedback_type: interpreted.feedbackType, user_agent: interpreted.userAgent };
    await this.events.record({ messageId: message.id, accountId: message.account_id, type: "complained", recipient, detail });
    await this.events.suppress(message.account_id, recipient, "complaint", `${interpreted.feedbackType} report`, message.id);
    return "complaint";
  }

  private async applyRecipientStatus(message: MessageRow, r: RecipientStatus, reportingMta: string | null) {
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
  private readonly receiver: SmtpReceiver;

  constructor(
    applier: ReportApplier,
    private readonly host: string,
    private readonly requestedPort: number,
    private readonly log: FastifyBaseLogger,
  ) {
    const tryAgainLater = () => smtpReply("451 4.3.0 try again later");
    this.receiver = new SmtpReceiver({
      smtp: {
        authOptional: true,
        disabledCommands: ["AUTH"],
        banner: "bounce and feedback-loop receiver",
        // An address that is not a genuine return path nor the feedback-loop address is refused as an unknown mailbox.
        onRcptTo: (address, _session, callback) => {
          applier.accepts(address.address).then(
            (accepted) => (accepted ? callback() : callback(smtpReply("550 5.1.1 no such mailbox here"))),
            (error) => {
              log.error({ err: error }, "checking an inbound recipient failed");
              callback(tryAgainLater());
            },
          );
        },
      },
      maxBytes: INBOUND_MAX_BYTES,
      tooLarge: "552 5.3.4 report too large",
      onConnectionError: (error) => log.debug({ err: error }, "an inbound SMTP connection failed; it is closed"),
      receive: async (raw, session) => {
        try {
          await applier.apply(
            raw,
            session.envelope.rcptTo.map((r) => r.address),
          );
        } catch (error) {
          log.error({ err: error }, "applying an inbound report failed");
          throw tryAgainLater();
        }
        return undefined;
      },
    });
  }

  get port(): number {
    return this.receiver.port;
  }

  async start(): Promise<void> {
    await this.receiver.start(this.requestedPort, this.host);
    this.log.info({ port: this.port, host: this.host }, "inbound SMTP listener for bounces and complaints is up");
  }

  listening(): boolean {
    return this.receiver.listening();
  }

  stop(): Promise<void> {
    return this.receiver.stop();
  }
}
