import { randomBytes } from "node:crypto";
import { ApiError, errors, type PlanName } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import { addressKey, type Mailbox } from "../domain/addresses.js";
import { MAX_ATTACHMENT_BYTES, allRecipients, prepareMessage, senderDomain, withoutRecipients, type Draft, type SendInput } from "../domain/message.js";
import { findDomain } from "../store/domains.js";
import { insertMessage, type NewMessage } from "../store/messages.js";
import { optedIn, suppressionsAmong } from "../store/recipients.js";
import type { SharedSender } from "../domain/shared-sender.js";
import { newEventId } from "../delivery/events.js";
import type { TrackedLinkCheck } from "../delivery/tracked-links.js";

const newMessageId = () => `msg_${randomBytes(12).toString("hex")}`;

/** ULTRA and MEGA traffic overtakes BASIC and PRO in the delivery queue. */
function priorityOf(plan: PlanName): number {
  return plan === "ULTRA" || plan === "MEGA" ? 1 : 0;
}

/** The lane a message's priority puts it in, as answers name it. */
export function laneOf(priority: number): "priority" | "standard" {
  return priority > 0 ? "priority" : "standard";
}

interface AcceptedMessage {
  id: string;
  status: "queued" | "scheduled";
  to: string[];
  submitted_at: string;
  send_at: string | null;
  rejected: { email: string; reason: string }[];
  lane: "priority" | "standard";
}

interface SubmissionOptions {
  db: Database;
  now: () => Date;
  defaultFrom: Mailbox;
  defaultDomain: string;
  /** The one address each account may send from on the shared (default) domain. */
  sharedSender: SharedSender;
  /** Called once a message is stored: the queue worker looks at once. */
  onQueued: () => void;
  /** Links of a message with click tracking, checked before it is accepted. */
  trackedLinks: TrackedLinkCheck;
}

interface TemplateOrigin {
  name: string;
  version: number;
}

const MB = 1024 * 1024;

interface MessageParts {
  id: string;
  accountId: string;
  plan: PlanName;
  draft: Draft;
  recipients: Mailbox[];
  template: TemplateOrigin | null;
  submittedAt: Date;
}

/** A message with a send_at waits for it; any other is queued at once. */
function statusOf(draft: Draft): AcceptedMessage["status"] {
  return draft.sendAt ? "scheduled" : "queued";
}

/** The stored row of an accepted message: waiting in the queue, in its plan's lane, due at once or at send_at. */
function messageRow({ id, accountId, plan, draft, recipients, template, submittedAt }: MessageParts): NewMessage {
  return {
    id,
    account_id: accountId,
    status: statusOf(draft),
    category: draft.category,
    from_address: draft.from.address,
    from_name: draft.from.name ?? null,
    recipients: recipients.map((m) => addressKey(m.address)),
    to_addresses: draft.to,
    cc_addresses: draft.cc,
    bcc_addresses: draft.bcc,
    reply_to: draft.replyTo,
    subject: draft.subject,
    html: draft.html,
    text_body: draft.text,
    headers: draft.headers,
    tags: draft.tags,
    metadata: draft.metadata,
    track_opens: draft.trackOpens,
    track_clicks: draft.trackClicks,
    template_name: template?.name ?? null,
    template_version: template?.version ?? null,
    has_attachments: draft.attachments.length > 0,
    submitted_at: submittedAt,
    send_at: draft.sendAt,
    queue_state: "waiting",
    priority: priorityOf(plan),
    next_attempt_at: draft.sendAt ?? submittedAt,
  };
}

/**
 * Turns a request into a stored, queued message: checks every rule (addresses, sending domain, suppressions, opt-in),
 * stores it in PostgreSQL and returns the 202 answer. Nothing here waits on SMTP.
 */
export class Submission {
  constructor(private readonly options: SubmissionOptions) {}

  async submit(accountId: string, plan: PlanName, input: SendInput, template: TemplateOrigin | null = null): Promise<AcceptedMessage> {
    const { now, db } = this.options;
    const submittedAt = now();
    const ownDefault = { ...this.options.defaultFrom, address: this.options.sharedSender.addressOf(accountId) };
    const prepared = prepareMessage(input, { now: submittedAt, defaultFrom: ownDefault });
    if ("issues" in prepared) throw errors.validationMany(prepared.issues);
    if ("tooLarge" in prepared) {
      throw errors.payloadTooLarge(
        "attachments",
        `add up to ${prepared.tooLarge.totalBytes} bytes (${(prepared.tooLarge.totalBytes / MB).toFixed(2)} MB); at most ${MAX_ATTACHMENT_BYTES} bytes (25 MB) may be sent`,
      );
    }
    if (prepared.draft.trackClicks) await this.options.trackedLinks.check(prepared.draft.html);
    await this.checkSendingDomain(accountId, prepared.draft);
    const rejected = await this.refusedRecipients(accountId, prepared.draft);
    const draft = withoutRecipients(prepared.draft, new Set(rejected.map((r) => r.email)));
    const recipients = allRecipients(draft);
    if (recipients.length === 0) {
      throw new ApiError(
        422,
        "UNPROCESSABLE",
        "No recipient of this message may be sent to.",
        rejected.map((r) => ({ field: "to", issue: `${r.email}: ${r.reason}` })),
      );
    }
    const id = newMessageId();
    const row = messageRow({ id, accountId, plan, draft, recipients, template, submittedAt });
    if (draft.attachments.length > 0) await db.transaction((tx) => insertMessage(tx, row, newEventId(), draft.attachments));
    else await insertMessage(db, row, newEventId(), []);
    if (!draft.sendAt) this.options.onQueued();
    return {
      id,
      status: statusOf(draft),
      to: draft.to.map((m) => m.address),
      submitted_at: submittedAt.toISOString(),
      send_at: draft.sendAt?.toISOString() ?? null,
      rejected,
      lane: laneOf(row.priority),
    };
  }

  /** On the shared domain only the account's own address; any other domain must be a verified domain of the account. */
  private async checkSendingDomain(accountId: string, draft: Draft): Promise<void> {
    const domain = senderDomain(draft);
    if (domain === this.options.defaultDomain) {
      const own = this.options.sharedSender.addressOf(accountId);
      if (addressKey(draft.from.address) === own) return;
      throw new ApiError(
        422,
        "UNPROCESSABLE",
        `On the shared domain ${domain} this account sends only as ${own} (with any display name); to send from another address, register and verify your own domain with POST /domains.`,
        [{ field: "from", issue: `must be ${own} on the shared domain ${domain}` }],
      );
    }
    const row = await findDomain(this.options.db, accountId, domain);
    if (!row) {
      throw new ApiError(
        422,
        "UNPROCESSABLE",
        `The sending domain ${domain} is not registered for this account: register it with POST /domains and verify it.`,
        [{ field: "from", issue: `${domain} is not a sending domain of this account` }],
      );
    }
    if (!row.verified_at) {
      throw new ApiError(
        422,
        "UNPROCESSABLE",
        `The sending domain ${domain} is not verified yet: publish its DNS records, then POST /domains/${domain}/verify.`,
        [{ field: "from", issue: `${domain} is not verified` }],
      );
    }
  }

  /** Recipients refused with the reason: suppressed (bounces, complaints; unsubscribes for marketing) or not opted in. */
  private async refusedRecipients(accountId: string, draft: Draft): Promise<{ email: string; reason: string }[]> {
    const emails = allRecipients(draft).map((m) => addressKey(m.address));
    const suppressed = await suppressionsAmong(this.options.db, accountId, emails);
    const consented = draft.category === "marketing" ? await optedIn(this.options.db, accountId, emails) : null;
    const refused: { email: string; reason: string }[] = [];
    for (const email of emails) {
      const reason = suppressed.get(email);
      if (reason && (reason !== "unsubscribed" || draft.category === "marketing")) refused.push({ email, reason: `suppressed (${reason})` });
      else if (consented && !consented.has(email))
        refused.push({ email, reason: "not on the account's opt-in list (marketing mail needs consent: POST /contacts)" });
    }
    return refused;
  }
}
