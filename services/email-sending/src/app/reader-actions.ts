import { errors } from "@apiplat/service-kit";
import type { Database } from "@apiplat/storage";
import type { LinkSigner } from "../domain/links.js";
import { machineAgent } from "../domain/tracking.js";
import type { EventRecorder } from "../delivery/events.js";
import { findMessageById, type MessageRow } from "../store/messages.js";
import { liftWithConsent } from "../store/recipients.js";

/** What a message's reader does without a key: opens it, clicks a tracked link, unsubscribes, re-subscribes. */
export interface ReaderDeps {
  db: Database;
  links: LinkSigner;
  events: EventRecorder;
  now: () => Date;
}

interface Reading {
  messageId: string;
  type: "opened" | "clicked";
  userAgent: string | undefined;
  detail: Record<string, unknown>;
}

/** An open or click of a message we sent; one by a privacy proxy or scanner is flagged and leaves the status alone. */
async function recordReading({ db, events }: ReaderDeps, { messageId, type, userAgent, detail }: Reading): Promise<void> {
  const message = await findMessageById(db, messageId);
  if (!message) return;
  const machine = machineAgent(userAgent);
  const recipient = message.recipients.length === 1 ? message.recipients[0] : null;
  const flags = type === "opened" ? { machine_open: machine !== null } : { machine_click: machine !== null };
  await events.record(
    { messageId: message.id, accountId: message.account_id, type, recipient, detail: { ...detail, ...flags, machine, user_agent: userAgent ?? null } },
    undefined,
    machine !== null,
  );
}

/** Records an open when the pixel's token is one we issued; any other token records nothing. */
export async function recordOpen(deps: ReaderDeps, rawToken: string, userAgent: string | undefined): Promise<void> {
  const token = deps.links.readOpen(rawToken);
  if (token) await recordReading(deps, { messageId: token.m, type: "opened", userAgent, detail: {} });
}

/** Records the click and gives the link's target; a link we never signed is a 404 (no open redirect). */
export async function recordClick(deps: ReaderDeps, rawToken: string, userAgent: string | undefined): Promise<string> {
  const token = deps.links.readClick(rawToken);
  if (!token) throw errors.notFound("This link is not valid: it was altered or never issued.");
  await recordReading(deps, { messageId: token.m, type: "clicked", userAgent, detail: { url: token.u } });
  return token.u;
}

interface UnsubscribeTarget {
  accountId: string;
  email: string;
  messageId: string;
  message: MessageRow | null;
}

/** Whose link it is: the message it came with, and the recipient it was made for (or null: not a link we issued). */
async function unsubscribeTarget({ db, links }: ReaderDeps, rawToken: string): Promise<UnsubscribeTarget | null> {
  const link = links.readUnsubscribe(rawToken);
  if (!link) return null;
  if (link.kind === "legacy")
    return { accountId: link.accountId, email: link.email.toLowerCase(), messageId: link.messageId, message: await findMessageById(db, link.messageId) };
  const message = await findMessageById(db, link.token.messageId);
  const email = message ? links.recipientOf("unsubscribe", link.token, message.recipients) : null;
  return message && email ? { accountId: message.account_id, email, messageId: message.id, message } : null;
}

/** Suppresses the link's recipient for marketing mail (idempotent); gives the address and the link that undoes it. */
export async function unsubscribe(deps: ReaderDeps, rawToken: string): Promise<{ email: string; resubscribeUrl: string }> {
  const target = await unsubscribeTarget(deps, rawToken);
  if (!target) throw errors.notFound("This unsubscribe link is not valid: it was altered or never issued.");
  const added = await deps.events.suppress(target.accountId, target.email, "unsubscribed", "unsubscribe link", target.messageId);
  if (added && target.message) {
    await deps.events.record(
      { messageId: target.messageId, accountId: target.accountId, type: "unsubscribed", recipient: target.email, detail: {} },
      undefined,
      true,
    );
  }
  return { email: target.email, resubscribeUrl: deps.links.resubscribeUrl(rawToken) };
}

/** The re-subscribe link is the unsubscribe link's token: whoever may unsubscribe that address may undo it. */
export async function resubscribeTarget(deps: ReaderDeps, rawToken: string): Promise<UnsubscribeTarget> {
  const target = await unsubscribeTarget(deps, rawToken);
  if (!target) throw errors.notFound("This re-subscribe link is not valid: it was altered or never issued.");
  return target;
}

/** Lifts the reader's own unsubscribe or complaint and records it as their consent; gives the address. */
export async function resubscribe(deps: ReaderDeps, rawToken: string): Promise<string> {
  const target = await resubscribeTarget(deps, rawToken);
  const at = deps.now();
  await liftWithConsent(deps.db, target.accountId, target.email, { liftedBy: "recipient", source: "re-subscribe link", consentedAt: at, recordedAt: at });
  return target.email;
}
