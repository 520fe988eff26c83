import { compile } from "html-to-text";
import { addressKey, domainOf, parseAddress, type Mailbox } from "./addresses.js";

/** The rules of one message, as a request gives it, before anything is stored. */

export const MAX_RECIPIENTS = 50;
export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;
export const MAX_ATTACHMENTS = 100;
export const SUBJECT_MAX_LENGTH = 998;
export const HTML_MAX_LENGTH = 5 * 1024 * 1024;
export const MAX_TAGS = 10;
export const TAG_PATTERN = "^[A-Za-z0-9_.:-]{1,64}$";
export const MAX_METADATA_KEYS = 20;
export const METADATA_VALUE_MAX_LENGTH = 500;
const MAX_CUSTOM_HEADERS = 50;
/** Scheduling reaches at most this far ahead. */
const MAX_SCHEDULE_MS = 72 * 60 * 60 * 1000;

/** Headers the service writes itself: a sender may not set or replace them. */
const RESERVED_HEADERS = new Set([
  "from",
  "sender",
  "to",
  "cc",
  "bcc",
  "reply-to",
  "subject",
  "date",
  "message-id",
  "return-path",
  "dkim-signature",
  "list-unsubscribe",
  "list-unsubscribe-post",
  "mime-version",
  "content-type",
  "content-transfer-encoding",
  "received",
  "x-email-id",
]);

/** Attachment types mail providers refuse because they run when opened. */
const BLOCKED_EXTENSIONS = new Set([
  "exe",
  "bat",
  "cmd",
  "com",
  "cpl",
  "js",
  "jse",
  "msi",
  "scr",
  "vbs",
  "vbe",
  "wsf",
  "ps1",
  "jar",
  "reg",
  "pif",
  "hta",
  "lnk",
]);

export type Category = "transactional" | "marketing";

interface AttachmentInput {
  filename: string;
  content: string;
  content_type?: string;
  content_id?: string;
}

export interface SendInput {
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  from?: string;
  reply_to?: string | string[];
  subject: string;
  html?: string;
  body?: string;
  text?: string;
  headers?: Record<string, string>;
  tags?: string[];
  metadata?: Record<string, string>;
  attachments?: AttachmentInput[];
  track_opens?: boolean;
  track_clicks?: boolean;
  category?: Category;
  send_at?: string;
}

export interface Attachment {
  filename: string;
  contentType: string;
  contentId: string | null;
  content: Buffer;
}

/** A message that passed every rule that needs nothing but the request itself. */
export interface Draft {
  from: Mailbox;
  to: Mailbox[];
  cc: Mailbox[];
  bcc: Mailbox[];
  replyTo: Mailbox[];
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  tags: string[];
  metadata: Record<string, string>;
  attachments: Attachment[];
  trackOpens: boolean;
  trackClicks: boolean;
  category: Category;
  sendAt: Date | null;
}

interface Issue {
  field: string;
  issue: string;
}

/** The request went over the attachment size limit: a 413, not a 400. */
class AttachmentsTooLarge {
  constructor(readonly totalBytes: number) {}
}

type PrepareResult = { draft: Draft } | { issues: Issue[] } | { tooLarge: AttachmentsTooLarge };

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function parseList(field: string, values: string[], issues: Issue[]): Mailbox[] {
  const mailboxes: Mailbox[] = [];
  values.forEach((value, i) => {
    const mailbox = parseAddress(value);
    const name = values.length > 1 || field === "to" ? `${field}[${i}]` : field;
    if (mailbox) mailboxes.push(mailbox);
    else issues.push({ field: name, issue: `must be an email address, e.g. someone@example.com; "${value.slice(0, 100)}" is not one` });
  });
  return mailboxes;
}

/** Decoded size of base64 text without decoding it; null when it is not base64. */
export function base64DecodedSize(content: string): number | null {
  const compact = content.replace(/[\r\n\t ]/g, "");
  if (compact.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return null;
  const padding = compact.endsWith("==") ? 2 : compact.endsWith("=") ? 1 : 0;
  return Math.floor((compact.length * 3) / 4) - padding;
}

/**
 * A text part is derived from at most this much of the HTML: deriving costs about 0.4 s of CPU per MiB, and mail
 * clients clip long messages anyway (Gmail at 102 KB). A sender of longer mail gives `text` itself.
 */
const TEXT_DERIVATION_MAX_HTML = 1024 * 1024;

const deriveText: (html: string) => string = compile({
  wordwrap: 78,
  selectors: [
    { selector: "img", format: "skip" },
    { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
  ],
});

/** Plain text for readers whose client shows no HTML: paragraphs kept, links written out after their text. */
export function textFromHtml(html: string): string {
  return deriveText(html.length > TEXT_DERIVATION_MAX_HTML ? html.slice(0, TEXT_DERIVATION_MAX_HTML) : html);
}

function checkHeaders(headers: Record<string, string>, issues: Issue[]): void {
  const names = Object.keys(headers);
  if (names.length > MAX_CUSTOM_HEADERS) issues.push({ field: "headers", issue: `must have at most ${MAX_CUSTOM_HEADERS} headers` });
  for (const name of names) {
    const value = headers[name];
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/.test(name))
      issues.push({ field: "headers", issue: `must have valid header names (letters, digits and !#$%&'*+.^_\`|~-); "${name.slice(0, 100)}" is not one` });
    else if (RESERVED_HEADERS.has(name.toLowerCase())) issues.push({ field: `headers.${name}`, issue: "is set by the service and may not be given" });
    else if (/[\r\n\0]/.test(value) || value.length > 998) issues.push({ field: `headers.${name}`, issue: "must be one line of at most 998 characters" });
  }
}

function checkAttachments(inputs: AttachmentInput[], issues: Issue[]): { attachments: Attachment[]; total: number } {
  const attachments: Attachment[] = [];
  let total = 0;
  inputs.forEach((input, i) => {
    const field = `attachments[${i}]`;
    const size = base64DecodedSize(input.content);
    const extension = input.filename.split(".").pop()?.toLowerCase() ?? "";
    if (size === null) issues.push({ field: `${field}.content`, issue: "must be base64" });
    if (/[\\/\r\n\0]/.test(input.filename)) issues.push({ field: `${field}.filename`, issue: "must not contain slashes or line breaks" });
    else if (input.filename.includes(".") && BLOCKED_EXTENSIONS.has(extension)) {
      issues.push({ field: `${field}.filename`, issue: `.${extension} files are refused because they run when opened` });
    }
    if (size === null) return;
    total += size;
    attachments.push({
      filename: input.filename,
      contentType: input.content_type ?? "application/octet-stream",
      contentId: input.content_id ?? null,
      content: Buffer.alloc(0),
    });
  });
  return { attachments, total };
}

interface PrepareContext {
  now: Date;
  /** The service's default sender, used when the message names none. */
  defaultFrom: Mailbox;
}

/**
 * Checks a message against every rule that needs only the request and returns it normalized: addresses parsed,
 * recipients de-duplicated across to, cc and bcc, the text part derived when absent, attachments decoded.
 */
export function prepareMessage(input: SendInput, context: PrepareContext): PrepareResult {
  const issues: Issue[] = [];
  const html = input.html ?? input.body;
  if (html === undefined) issues.push({ field: "html", issue: "is required (the message's HTML body)" });
  if (input.html !== undefined && input.body !== undefined) issues.push({ field: "body", issue: "must be left out when html is given (body is its alias)" });
  const toValues = list(input.to);
  if (toValues.length === 0) issues.push({ field: "to", issue: "must name at least one recipient" });
  const to = parseList("to", toValues, issues);
  const cc = parseList("cc", list(input.cc), issues);
  const bcc = parseList("bcc", list(input.bcc), issues);
  const replyTo = parseList("reply_to", list(input.reply_to), issues);
  const from = input.from === undefined ? context.defaultFrom : parseAddress(input.from);
  if (!from) issues.push({ field: "from", issue: `must be an email address, e.g. someone@example.com; "${String(input.from).slice(0, 100)}" is not one` });

  const seen = new Set<string>();
  const dedupe = (mailboxes: Mailbox[]) =>
    mailboxes.filter((m) => {
      const key = addressKey(m.address);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const [uniqueTo, uniqueCc, uniqueBcc] = [dedupe(to), dedupe(cc), dedupe(bcc)];
  const recipientCount = uniqueTo.length + uniqueCc.length + uniqueBcc.length;
  if (recipientCount > MAX_RECIPIENTS) {
    issues.push({ field: "to", issue: `must name at most ${MAX_RECIPIENTS} recipients across to, cc and bcc; this message has ${recipientCount}` });
  }

  const category = input.category ?? "transactional";
  if (category === "marketing" && (uniqueTo.length > 1 || uniqueCc.length > 0 || uniqueBcc.length > 0)) {
    issues.push({
      field: "to",
      issue: "must name one recipient: marketing mail goes to one recipient per message (each carries its own unsubscribe link); use /send/batch for many",
    });
  }
  if (input.headers) checkHeaders(input.headers, issues);

  let sendAt: Date | null = null;
  if (input.send_at !== undefined) {
    const at = new Date(input.send_at);
    if (Number.isNaN(at.getTime())) issues.push({ field: "send_at", issue: "must be an ISO 8601 date-time" });
    else if (at.getTime() - context.now.getTime() > MAX_SCHEDULE_MS) issues.push({ field: "send_at", issue: "must be at most 72 hours ahead" });
    else if (at.getTime() > context.now.getTime()) sendAt = at;
  }

  const checked = checkAttachments(input.attachments ?? [], issues);
  if (issues.length > 0) return { issues };
  if (checked.total > MAX_ATTACHMENT_BYTES) return { tooLarge: new AttachmentsTooLarge(checked.total) };
  const attachments = checked.attachments.map((a, i) => ({ ...a, content: Buffer.from(input.attachments![i].content, "base64") }));

  return {
    draft: {
      from: from!,
      to: uniqueTo,
      cc: uniqueCc,
      bcc: uniqueBcc,
      replyTo,
      subject: input.subject.replace(/[\r\n]+/g, " "),
      html: html!,
      text: input.text ?? textFromHtml(html!),
      headers: input.headers ?? {},
      tags: input.tags ?? [],
      metadata: input.metadata ?? {},
      attachments,
      trackOpens: input.track_opens ?? false,
      trackClicks: input.track_clicks ?? false,
      category,
      sendAt,
    },
  };
}

export function allRecipients(draft: Pick<Draft, "to" | "cc" | "bcc">): Mailbox[] {
  return [...draft.to, ...draft.cc, ...draft.bcc];
}

/** The draft without the recipients the service refused (suppressed, not opted in). */
export function withoutRecipients(draft: Draft, refused: Set<string>): Draft {
  const keep = (list: Mailbox[]) => list.filter((m) => !refused.has(addressKey(m.address)));
  return { ...draft, to: keep(draft.to), cc: keep(draft.cc), bcc: keep(draft.bcc) };
}

export function senderDomain(draft: Pick<Draft, "from">): string {
  return domainOf(draft.from.address);
}
