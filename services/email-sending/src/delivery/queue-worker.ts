import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { MailOptions } from "nodemailer/lib/smtp-transport/index.js";
import type { Database } from "@apiplat/storage";
import { PollingLoop } from "@apiplat/service-kit";
import { domainOf, formatMailbox } from "../domain/addresses.js";
import type { Attachment } from "../domain/message.js";
import type { LinkSigner } from "../domain/links.js";
import type { ReturnPaths } from "../domain/verp.js";
import { outgoingBody } from "../domain/outgoing.js";
import { isPermanent, nextAttemptAt, type SmtpFailure } from "../domain/smtp-retry.js";
import { claimDueMessages, extendLeases, loadAttachments, releaseExpiredLeases, type MessageRow, type QueueChange } from "../store/messages.js";
import type { EventRecorder } from "./events.js";
import { RelayError, type MailRelay } from "./relay.js";
import type { SigningKeys } from "./signing-keys.js";

export interface DeliveryWorkerOptions {
  db: Database;
  relay: () => MailRelay;
  events: EventRecorder;
  keys: SigningKeys;
  links: LinkSigner;
  returnPaths: ReturnPaths;
  log: FastifyBaseLogger;
  now: () => Date;
  random: () => number;
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  retryBaseMs: number;
  retryWindowMs: number;
}

/** The headers a DKIM signature covers: nodemailer's defaults plus RFC 8058's List-Unsubscribe-Post. */
const SIGNED_HEADERS =
  "From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:Content-ID:" +
  "Content-Description:List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive";

/**
 * Bodies above this many characters are written base64: nodemailer's default line folding costs about 1.2 s per MiB
 * of HTML on the worker's event loop (6 s for a 5 MiB body), base64 about a tenth of it. Smaller bodies keep the
 * default, which spam filters know best.
 */
const BASE64_BODY_CHARS = 256 * 1024;

/**
 * The queue consumer: claims due messages from PostgreSQL (most urgent lane first, SKIP LOCKED so that several
 * processes share the work), hands each to the relay and records the outcome. The lease is short and renewed (every
 * third of it) while the message is being delivered, so a crash leaves claimed messages leased only until their lease
 * runs out (seconds); they are then claimed again, by any replica.
 */
export class DeliveryWorker {
  private inFlight = 0;
  private readonly delivering = new Set<string>();
  private readonly loop: PollingLoop;
  private lastLeaseSweep = 0;
  private renewTimer: NodeJS.Timeout | undefined;
  private readonly idle = new Set<() => void>();

  constructor(private readonly options: DeliveryWorkerOptions) {
    this.loop = new PollingLoop({
      pass: async () => (await this.claimAndDeliver()) > 0 && this.inFlight < options.concurrency,
      pollMs: options.pollMs,
      onError: (error) => options.log.error({ err: error }, "email queue: claiming failed"),
    });
  }

  start(): void {
    this.loop.start();
    this.renewTimer = setInterval(() => void this.renewLeases(), Math.max(50, Math.floor(this.options.leaseMs / 3)));
    this.renewTimer.unref();
  }

  private async renewLeases(): Promise<void> {
    if (this.delivering.size === 0) return;
    const { db, now, leaseMs, log } = this.options;
    try {
      await extendLeases(db, [...this.delivering], new Date(now().getTime() + leaseMs));
    } catch (error) {
      log.error({ err: error }, "email queue: renewing leases failed");
    }
  }

  /** A message was accepted or a retry came due: look now instead of at the next poll. */
  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.idle.add(resolve));
    clearInterval(this.renewTimer);
  }

  private async claimAndDeliver(): Promise<number> {
    const { db, now, leaseMs, concurrency } = this.options;
    const at = now();
    if (at.getTime() - this.lastLeaseSweep > Math.min(leaseMs, 5_000)) {
      this.lastLeaseSweep = at.getTime();
      const released = await releaseExpiredLeases(db, at, [...this.delivering]);
      if (released > 0) this.options.log.warn({ released }, "email queue: messages whose worker vanished are due again");
    }
    const free = concurrency - this.inFlight;
    if (free <= 0) return 0;
    const messages = await claimDueMessages(db, at, leaseMs, free);
    for (const message of messages) {
      this.inFlight++;
      this.delivering.add(message.id);
      this.deliver(message)
        .catch((error) => this.options.log.error({ err: error, message_id: message.id }, "email queue: recording an outcome failed"))
        .finally(() => {
          this.inFlight--;
          this.delivering.delete(message.id);
          this.kick();
          if (this.inFlight === 0) {
            for (const resolve of this.idle) resolve();
            this.idle.clear();
          }
        });
    }
    return messages.length;
  }

  /**
   * The message as it leaves, built and DKIM-signed once: each recipient's copy is the same bytes with its own
   * envelope, so a message to 50 recipients costs one composition and one signature, not fifty.
   */
  private async compose(message: MessageRow, attachments: Attachment[]): Promise<Composed> {
    const fromDomain = domainOf(message.from_address);
    const signing = await this.options.keys.forSending(message.account_id, fromDomain);
    const body = outgoingBody(
      {
        id: message.id,
        category: message.category,
        html: message.html,
        text: message.text_body,
        trackOpens: message.track_opens,
        trackClicks: message.track_clicks,
        marketingRecipient: message.category === "marketing" ? message.recipients[0] : null,
      },
      this.options.links,
    );
    const dsn = { envid: message.id, ret: "HDRS", notify: ["SUCCESS", "FAILURE", "DELAY"] } as const;
    const mail: MailOptions = {
      from: formatMailbox({ address: message.from_address, name: message.from_name ?? undefined }),
      to: message.to_addresses.map(formatMailbox),
      cc: message.cc_addresses.map(formatMailbox),
      // No Bcc header: each recipient's copy has its own envelope, so bcc recipients need no header to be reached.
      replyTo: message.reply_to.length > 0 ? message.reply_to.map(formatMailbox) : undefined,
      subject: message.subject,
      html: body.html,
      text: body.text,
      textEncoding: body.html.length + body.text.length > BASE64_BODY_CHARS ? "base64" : undefined,
      headers: { ...message.headers, ...body.headers, "X-Email-Id": message.id },
      messageId: `<${message.id}@${fromDomain}>`,
      date: message.submitted_at,
      dkim: { domainName: signing.domain, keySelector: signing.selector, privateKey: signing.privateKey, headerFieldNames: SIGNED_HEADERS },
      attachments: attachments.map((a) => ({
        filename: a.filename,
        content: a.content,
        contentType: a.contentType,
        cid: a.contentId ?? undefined,
        contentDisposition: a.contentId ? ("inline" as const) : ("attachment" as const),
      })),
    };
    const built = await composer.sendMail(mail);
    return { raw: built.message as Buffer, dsn: { ...dsn, notify: [...dsn.notify] }, bounceDomain: signing.bounceDomain };
  }

  /** One recipient's copy to the relay, with the return path made for that recipient of this message. */
  private async sendTo(relay: MailRelay, message: MessageRow, composed: Composed, recipient: string): Promise<RecipientOutcome> {
    const envelope = { from: this.options.returnPaths.address(message.id, recipient, composed.bounceDomain), to: [recipient] };
    try {
      const result = await relay.send({ envelope, raw: composed.raw, dsn: composed.dsn });
      const refused = result.rejected.find((r) => r.email === recipient);
      if (!refused) return { recipient, kind: "accepted" };
      const failure = new RelayError(refused.response, refused.responseCode, undefined, [refused]);
      return { recipient, kind: isPermanent(failure) ? "refused" : "temporary", failure };
    } catch (error) {
      const failure = error instanceof RelayError ? error : new RelayError(String(error), undefined, undefined, []);
      return { recipient, kind: isPermanent(failure) ? "refused" : "temporary", failure };
    }
  }

  private async deliver(message: MessageRow): Promise<void> {
    const { events, db, log } = this.options;
    const attachments = message.has_attachments ? await loadAttachments(db, message.id) : [];
    let composed: Composed;
    try {
      composed = await this.compose(message, attachments);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      log.error({ err: error, message_id: message.id }, "email queue: the message could not be composed");
      await events.record(
        { messageId: message.id, accountId: message.account_id, type: "failed", detail: { reason: "the message could not be prepared for sending" } },
        { state: "done", lastError: reason },
      );
      return;
    }
    const relay = this.options.relay();
    const recipients = message.pending_recipients ?? message.recipients;
    const outcomes = await Promise.all(recipients.map((r) => this.sendTo(relay, message, composed, r)));
    for (const o of outcomes) {
      if (o.failure)
        log.info(
          { message_id: message.id, relay: relay.description, code: o.failure.code, reply: o.failure.message },
          "email queue: the relay did not take a recipient",
        );
    }
    await this.recordOutcomes(message, outcomes, relay.isLocalSink);
  }

  /**
   * Records what the relay did with each recipient: "sent" for those it took, a hard bounce (and a suppression) for
   * those it refused, and for those that failed for now a retry of just them, or a soft bounce once the window is over.
   */
  private async recordOutcomes(message: MessageRow, outcomes: RecipientOutcome[], localSink: boolean): Promise<void> {
    const { events, now, random, retryBaseMs, retryWindowMs } = this.options;
    const accepted = outcomes.filter((o) => o.kind === "accepted").map((o) => o.recipient);
    const refused = outcomes.filter((o) => o.kind === "refused");
    const temporary = outcomes.filter((o) => o.kind === "temporary");
    const at = now();
    const retryAt = temporary.length > 0 ? nextAttemptAt(message.first_attempt_at ?? at, at, message.attempts, retryBaseMs, retryWindowMs, random()) : null;
    const lastError = temporary[0]?.failure?.message ?? refused[0]?.failure?.message ?? null;
    const queue: QueueChange = retryAt
      ? { state: "waiting", nextAttemptAt: retryAt, lastError, pendingRecipients: temporary.map((o) => o.recipient) }
      : { state: "done", lastError, pendingRecipients: null };
    const ref = { messageId: message.id, accountId: message.account_id };
    // The queue change goes with the first event recorded; a message already on its way keeps its status on the others.
    let pendingQueue: QueueChange | undefined = queue;
    const take = () => {
      const q = pendingQueue;
      pendingQueue = undefined;
      return q;
    };
    const alreadySent = accepted.length > 0 || message.sent_at !== null;

    if (accepted.length > 0) {
      await events.recordAttempt(message, { type: "sent", detail: { local_sink: localSink, accepted } }, { ...take()!, sentAt: at });
    }
    for (const [i, o] of refused.entries()) {
      await events.suppress(message.account_id, o.recipient, "hard_bounce", o.failure!.message, message.id);
      const last = i === refused.length - 1 && temporary.length === 0;
      await events.record(
        { ...ref, type: "bounced", recipient: o.recipient, detail: { ...failureDetail(o.failure!), bounce_type: "hard" } },
        last ? take() : undefined,
        alreadySent || !last,
      );
    }
    if (temporary.length === 0) return;
    const detail = { ...failureDetail(temporary[0].failure!), recipients: temporary.map((o) => o.recipient) };
    const recipient = temporary.length === 1 ? temporary[0].recipient : null;
    if (retryAt) {
      const change = take();
      if (change)
        await events.recordAttempt(
          message,
          { type: "deferred", recipient, detail: { ...detail, attempt: message.attempts, next_attempt_at: retryAt.toISOString() } },
          change,
        );
      else
        await events.record(
          { ...ref, type: "deferred", recipient, detail: { ...detail, attempt: message.attempts, next_attempt_at: retryAt.toISOString() } },
          undefined,
          true,
        );
    } else {
      await events.record(
        {
          ...ref,
          type: "bounced",
          recipient,
          detail: { ...detail, bounce_type: "soft", reason: "temporary failures for the whole retry window", last_failure: detail.reason },
        },
        take(),
        alreadySent,
      );
    }
  }
}

interface Composed {
  /** The whole message, DKIM-signed. */
  raw: Buffer;
  dsn: NonNullable<MailOptions["dsn"]>;
  bounceDomain: string;
}

/** Builds and signs a message without sending it (nodemailer's own composer and DKIM signer). */
const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });

interface RecipientOutcome {
  recipient: string;
  kind: "accepted" | "refused" | "temporary";
  failure?: RelayError;
}

/**
 * What a subscriber reads about a failed attempt: the SMTP reply when there was one (the receiving side's words),
 * else a plain reason. How the platform reaches its relay (addresses, ports, system error codes) stays in the logs.
 */
function failureDetail(failure: SmtpFailure): { smtp_code: number | null; smtp_response: string | null; reason: string } {
  if (failure.responseCode !== undefined) {
    return {
      smtp_code: failure.responseCode,
      smtp_response: failure.message,
      reason: isPermanent(failure) ? "the receiving server refused the message" : "the receiving server deferred the message",
    };
  }
  const timedOut = failure.code === "ETIMEDOUT" || /timed? ?out/i.test(failure.message);
  return {
    smtp_code: null,
    smtp_response: null,
    reason: timedOut ? "the receiving server did not answer in time" : "the receiving server could not be reached",
  };
}
