import { randomBytes } from "node:crypto";
import type { Database } from "@apiplat/storage";
import { applyEvent, recordAttemptOutcome, type MessageRow, type QueueChange } from "../store/messages.js";
import { suppress, type SuppressionRow } from "../store/recipients.js";

export const newEventId = () => `evt_${randomBytes(12).toString("hex")}`;

interface EventInput {
  messageId: string;
  accountId: string;
  type: string;
  recipient?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * Every status change goes through here: the event joins the message's history (which queues its webhooks) and the
 * webhook sender is woken; bounces and complaints also suppress the address.
 */
export class EventRecorder {
  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
    private readonly onEvent: () => void,
  ) {}

  /** `keepStatus` records the event without moving the status (an open made by a machine, say). */
  async record(input: EventInput, queue?: QueueChange, keepStatus = false): Promise<string | null> {
    const status = await applyEvent(
      this.db,
      {
        eventId: newEventId(),
        messageId: input.messageId,
        accountId: input.accountId,
        type: input.type,
        recipient: input.recipient ?? null,
        detail: input.detail ?? {},
        at: this.now(),
      },
      queue,
      keepStatus,
    );
    this.onEvent();
    return status;
  }

  /** The outcome of a delivery attempt on a message the caller holds leased (one statement). */
  async recordAttempt(
    message: Pick<MessageRow, "id" | "account_id" | "status" | "tags" | "metadata">,
    input: Omit<EventInput, "messageId" | "accountId">,
    queue: QueueChange,
  ): Promise<string> {
    const status = await recordAttemptOutcome(
      this.db,
      {
        eventId: newEventId(),
        messageId: message.id,
        accountId: message.account_id,
        type: input.type,
        recipient: input.recipient ?? null,
        detail: input.detail ?? {},
        at: this.now(),
      },
      message,
      queue,
    );
    this.onEvent();
    return status;
  }

  /** True when the address was not suppressed before. */
  async suppress(accountId: string, email: string, reason: SuppressionRow["reason"], detail: string, messageId: string | null): Promise<boolean> {
    return suppress(this.db, accountId, { email: email.toLowerCase(), reason, detail: detail.slice(0, 1000), message_id: messageId, created_at: this.now() });
  }
}
