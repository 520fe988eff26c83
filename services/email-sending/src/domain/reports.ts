/**
 * Reading what comes back to the return path: delivery status notifications (RFC 3464) and complaint feedback
 * reports (RFC 5965). The inbound listener parses the MIME with mailparser and hands the parts here.
 */

interface ReportPart {
  contentType: string;
  content: string;
}

export interface ParsedReport {
  /** `report-type` of a multipart/report, or null. */
  reportType: string | null;
  subject: string;
  /** The human-readable text of the report. */
  text: string;
  parts: ReportPart[];
  /**
   * The whole message as received: mailparser folds an inline message/rfc822 part into the text (keeping only From,
   * To and Subject), so the quoted original's Message-ID is found here.
   */
  raw: string;
}

type BounceType = "hard" | "soft";

export interface RecipientStatus {
  /** Final-Recipient, or Original-Recipient when the report gives no final one. */
  email: string;
  /** Original-Recipient: the address as we gave it, before forwarding or aliasing at the receiving side. */
  originalRecipient: string | null;
  /** failed, delayed, delivered, relayed or expanded (RFC 3464 section 2.3.3). */
  action: string;
  /** The enhanced status code (RFC 3463), e.g. 5.1.1. */
  status: string | null;
  diagnostic: string | null;
  remoteMta: string | null;
}

type InboundReport =
  | { kind: "dsn"; recipients: RecipientStatus[]; reportingMta: string | null }
  | { kind: "complaint"; feedbackType: string; recipient: string | null; userAgent: string | null }
  | { kind: "unstructured_bounce"; diagnostic: string; permanent: boolean }
  | { kind: "unknown" };

/** Header-style fields (RFC 5322 folding) of one block: names lower-cased, first value kept. */
function parseFields(block: string): Map<string, string> {
  const fields = new Map<string, string>();
  const unfolded = block.replace(/\r\n/g, "\n").replace(/\n[ \t]+/g, " ");
  for (const line of unfolded.split("\n")) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1).trim());
  }
  return fields;
}

function blocks(content: string): string[] {
  return content
    .replace(/\r\n/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((b) => b.trim())
    .filter(Boolean);
}

/** `rfc822; Someone@Example.org` -> `someone@example.org`. */
function addressField(value: string | undefined): string | null {
  if (!value) return null;
  const address = value.includes(";") ? value.slice(value.indexOf(";") + 1) : value;
  const cleaned = address.trim().replace(/^<|>$/g, "");
  return cleaned.includes("@") ? cleaned.toLowerCase() : null;
}

function typeValue(value: string | undefined): string | null {
  if (!value) return null;
  return value.includes(";") ? value.slice(value.indexOf(";") + 1).trim() : value.trim();
}

export function parseDeliveryStatus(content: string): { reportingMta: string | null; recipients: RecipientStatus[] } {
  const [messageBlock, ...recipientBlocks] = blocks(content);
  const perMessage = parseFields(messageBlock ?? "");
  const recipients: RecipientStatus[] = [];
  for (const block of recipientBlocks) {
    const fields = parseFields(block);
    const email = addressField(fields.get("final-recipient")) ?? addressField(fields.get("original-recipient"));
    const action = fields.get("action")?.toLowerCase();
    if (!email || !action) continue;
    recipients.push({
      email,
      originalRecipient: addressField(fields.get("original-recipient")),
      action,
      status: /\d\.\d{1,3}\.\d{1,3}/.exec(fields.get("status") ?? "")?.[0] ?? null,
      diagnostic: typeValue(fields.get("diagnostic-code")),
      remoteMta: typeValue(fields.get("remote-mta")),
    });
  }
  return { reportingMta: typeValue(perMessage.get("reporting-mta")), recipients };
}

/**
 * Hard or soft: the enhanced status class decides (5 = permanent, 4 = transient); without one, the SMTP reply code in
 * the diagnostic does; "failed" with neither counts as hard, as RFC 3464 means by it.
 */
export function bounceTypeOf(recipient: Pick<RecipientStatus, "status" | "diagnostic">): BounceType {
  if (recipient.status) return recipient.status.startsWith("5") ? "hard" : "soft";
  const code = /\b([45])\d\d\b/.exec(recipient.diagnostic ?? "")?.[1];
  return code === "4" ? "soft" : "hard";
}

const BOUNCE_SUBJECT = /undeliver|delivery (status notification|failure|has failed)|returned mail|failure notice|mail delivery failed|could not be delivered/i;

/** Interprets an inbound message addressed to the return path. */
export function interpretReport(report: ParsedReport): InboundReport {
  const part = (type: string) => report.parts.find((p) => p.contentType.toLowerCase() === type);
  const deliveryStatus = part("message/delivery-status") ?? part("message/global-delivery-status");
  if (deliveryStatus) {
    const parsed = parseDeliveryStatus(deliveryStatus.content);
    if (parsed.recipients.length > 0) return { kind: "dsn", ...parsed };
  }
  const feedback = part("message/feedback-report");
  if (feedback || report.reportType === "feedback-report") {
    const fields = parseFields(feedback?.content ?? "");
    return {
      kind: "complaint",
      feedbackType: (fields.get("feedback-type") ?? "abuse").toLowerCase(),
      recipient: addressField(fields.get("original-rcpt-to")),
      userAgent: fields.get("user-agent") ?? null,
    };
  }
  if (BOUNCE_SUBJECT.test(report.subject)) {
    const reply = /\b([45])\d\d[ -](?:[45]\.\d{1,3}\.\d{1,3} )?[^\n]*/.exec(report.text);
    return { kind: "unstructured_bounce", diagnostic: (reply?.[0] ?? report.subject).slice(0, 500), permanent: reply?.[1] !== "4" };
  }
  return { kind: "unknown" };
}

/** Every return path in our VERP form quoted anywhere in a report (at most `limit`, lower-cased, distinct). */
export function returnPathsIn(report: ParsedReport, limit = 10): string[] {
  const found = new Set<string>();
  for (const text of [report.raw, ...report.parts.map((p) => p.content)]) {
    for (const match of text.matchAll(/bounces\+msg_[0-9a-f]{24}\.[0-9a-f]{8}\.[0-9a-f]{16}@/gi)) {
      found.add(match[0].toLowerCase());
      if (found.size >= limit) return [...found];
    }
  }
  return [...found];
}
