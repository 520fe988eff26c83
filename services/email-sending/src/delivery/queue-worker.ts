import type { FastifyBaseLogger } from "fastify";
import type { MailOptions } from "nodemailer/lib/smtp-transport/index.js";
import type { Database } from "@apiplat/storage";
import { domainOf, formatMailbox } from "../domain/addresses.js";
import type { Attachment } from "../domain/message.js";
import type { LinkSigner } from "../domain/links.js";
import { outgoingBody } from "../domain/outgoing.js";
import { isPermanent, nextAttemptAt } from "../domain/smtp-retry.js";
import { claimDueMessages, loadAttachments, releaseExpiredLeases, type MessageRow } from "../store/messages.js";
import type { EventRecorder } from "./events.js";
import { RelayError, type MailRelay, type RejectedRecipient } from "./relay.js";
import type { SigningKeys } from "./signing-keys.js";

export interface DeliveryWorkerOptions {
  db: Database;
  relay: () => MailRelay;
  events: EventRecorder;
  keys: SigningKeys;
  links: LinkSigner;
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
 * processes share the work), hands each to the relay and records the outcome. A crash leaves claimed messages leased;
 * their lease runs out and they are claimed again.
 */
export class DeliveryWorker {
  private running = false;
  private inFlight = 0;
  private readonly delivering = new Set<string>();
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private lastLeaseSweep = 0;
  private readonly idle = new Set<() => void>();

  constructor(private readonly options: DeliveryWorkerOptions) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** A message was accepted or a retry came due: look now instead of at the next poll. */
  kick(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loop;
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.idle.add(resolve));
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.claimAndDeliver();
      } catch (error) {
        this.options.log.error({ err: error }, "email queue: claiming failed");
      }
      if (!this.running) break;
      if (claimed === 0 || this.inFlight >= this.options.concurrency) await this.sleep(this.options.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
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

  private async compose(message: MessageRow, attachments: Attachment[]): Promise<MailOptions> {
    const fromDomain = domainOf(message.from_address);
    const signing = await this.options.keys.forSending(message.account_id, fromDomain);
    const returnPath = `bounces+${message.id}@${signing.bounceDomain}`;
    const body = outgoingBody(
      {
        id: message.id,
        accountId: message.account_id,
        category: message.category,
        html: message.html,
        text: message.text_body,
        trackOpens: message.track_opens,
        trackClicks: message.track_clicks,
        marketingRecipient: message.category === "marketing" ? message.recipients[0] : null,
      },
      this.options.links,
    );
    return {
      from: formatMailbox({ address: message.from_address, name: message.from_name ?? undefined }),
      to: message.to_addresses.map(formatMailbox),
      cc: message.cc_addresses.map(formatMailbox),
      bcc: message.bcc_addresses.map(formatMailbox),
      replyTo: message.reply_to.length > 0 ? message.reply_to.map(formatMailbox) : undefined,
      subject: message.subject,
      html: body.html,
      text: body.text,
      textEncoding: body.html.length + body.text.length > BASE64_BODY_CHARS ? "base64" : undefined,
      headers: { ...message.headers, ...body.headers, "X-Email-Id": message.id },
      messageId: `<${message.id}@${fromDomain}>`,
      date: message.submitted_at,
      envelope: { from: returnPath, to: message.recipients },
      dsn: { envid: message.id, ret: "HDRS", notify: ["SUCCESS", "FAILURE", "DELAY"] },
      dkim: { domainName: signing.domain, keySelector: signing.selector, privateKey: signing.privateKey, headerFieldNames: SIGNED_HEADERS },
      attachments: attachments.map((a) => ({
        filename: a.filename,
        content: a.content,
        contentType: a.contentType,
        cid: a.contentId ?? undefined,
        contentDisposition: a.contentId ? ("inline" as const) : ("attachment" as const),
      })),
    };
  }

  private async deliver(message: MessageRow): Promise<void> {
    const { events, db } = this.options;
    const attachments = message.has_attachments ? await loadAttachments(db, message.id) : [];
    let mail: MailOptions;
    try {
      mail = await this.compose(message, attachments);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await events.record({ messageId: message.id, accountId: message.account_id, type: "failed", detail: { reason } }, { state: "done", lastError: reason });
      return;
    }
    const relay = this.options.relay();
    try {
      const result = await relay.send(mail);
      await events.recordAttempt(
        message,
        { type: "sent", detail: { relay: relay.description, local_sink: relay.isLocalSink, smtp_response: result.response, accepted: result.accepted } },
        { state: "done", sentAt: this.options.now(), lastError: null },
      );
      await this.bounceRejected(message, result.rejected);
    } catch (error) {
      const failure = error instanceof RelayError ? error : new RelayError(String(error), undefined, undefined, []);
      await this.failed(message, failure, relay);
    }
  }

  /** Recipients the relay refused while it took the message for the others: their bounce leaves the message "sent". */
  private async bounceRejected(message: MessageRow, rejected: RejectedRecipient[]): Promise<void> {
    for (const r of rejected) {
      const hard = r.responseCode === undefined || r.responseCode >= 500;
      await this.options.events.record(
        {
          messageId: message.id,
          accountId: message.account_id,
          type: "bounced",
          recipient: r.email,
          detail: { bounce_type: hard ? "hard" : "soft", smtp_code: r.responseCode ?? null, smtp_response: r.response, source: "relay" },
        },
        undefined,
        true,
      );
      if (hard) await this.options.events.suppress(message.account_id, r.email, "hard_bounce", r.response, message.id);
    }
  }

  private async failed(message: MessageRow, failure: RelayError, relay: MailRelay): Promise<void> {
    const { events, now, random, retryBaseMs, retryWindowMs } = this.options;
    const detail = { relay: relay.description, smtp_code: failure.responseCode ?? null, smtp_response: failure.message, error_code: failure.code ?? null };
    if (isPermanent(failure)) {
      const recipients = failure.rejected.length > 0 ? failure.rejected.map((r) => r.email) : message.recipients;
      for (const email of recipients) await events.suppress(message.account_id, email, "hard_bounce", failure.message, message.id);
      await events.record(
        { messageId: message.id, accountId: message.account_id, type: "bounced", recipient: recipients.length === 1 ? recipients[0] : null, detail: { ...detail, bounce_type: "hard", recipients } },
        { state: "done", lastError: failure.message },
      );
      return;
    }
    const at = now();
    const next = nextAttemptAt(message.first_attempt_at ?? at, at, message.attempts, retryBaseMs, retryWindowMs, random());
    if (next === null) {
      await events.record(
        { messageId: message.id, accountId: message.account_id, type: "bounced", detail: { ...detail, bounce_type: "soft", reason: "temporary failures for the whole retry window" } },
        { state: "done", lastError: failure.message },
      );
      return;
    }
    await events.recordAttempt(
      message,
      { type: "deferred", detail: { ...detail, attempt: message.attempts, next_attempt_at: next.toISOString() } },
      { state: "waiting", nextAttemptAt: next, lastError: failure.message },
    );
  }
}
