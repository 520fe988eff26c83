import { createHmac, timingSafeEqual } from "node:crypto";
import { addressKey } from "./addresses.js";
import { deriveKey, signToken, verifyToken } from "./tokens.js";

/** The public links a message carries: open pixel, click redirect, unsubscribe. Each is a signed token. */

interface ClickToken {
  m: string;
  u: string;
}
interface OpenToken {
  m: string;
}
/** The form of unsubscribe links in mail sent before they became opaque: still honoured, never issued. */
interface LegacyUnsubscribeToken {
  a: string;
  e: string;
  m: string;
}

/**
 * A recipient's link to their own state (unsubscribe, and re-subscribe from its page): 64 hex digits, the message id's 24, a keyed tag of
 * the recipient's address (8) and an HMAC of both (32). Nothing readable in it; the message it names says whose list.
 */
interface RecipientToken {
  messageId: string;
  tag: string;
  mac: string;
}

/** An unsubscribe link as read: an opaque token to match against the message's recipients, or an old signed one. */
type UnsubscribeLink = { kind: "token"; token: RecipientToken } | { kind: "legacy"; accountId: string; email: string; messageId: string };

const RECIPIENT_TOKEN = /^([0-9a-f]{24})([0-9a-f]{8})([0-9a-f]{32})$/;

export class LinkSigner {
  private readonly clickKey: Buffer;
  private readonly openKey: Buffer;
  private readonly unsubscribeKey: Buffer;
  private readonly recipientTagKey: Buffer;
  private readonly macKeys: Record<"unsubscribe", Buffer>;

  constructor(
    secret: string,
    private readonly baseUrl: string,
  ) {
    this.clickKey = deriveKey(secret, "click");
    this.openKey = deriveKey(secret, "open");
    this.unsubscribeKey = deriveKey(secret, "unsubscribe");
    this.recipientTagKey = deriveKey(secret, "link-recipient-tag");
    this.macKeys = { unsubscribe: deriveKey(secret, "unsubscribe-link") };
  }

  private tag(email: string): string {
    return createHmac("sha256", this.recipientTagKey).update(addressKey(email)).digest("hex").slice(0, 8);
  }

  private mac(purpose: "unsubscribe", messageId: string, email: string): string {
    return createHmac("sha256", this.macKeys[purpose])
      .update(`${messageId}\n${addressKey(email)}`)
      .digest("hex")
      .slice(0, 32);
  }

  private recipientToken(purpose: "unsubscribe", messageId: string, email: string): string {
    return `${messageId.replace(/^msg_/, "")}${this.tag(email)}${this.mac(purpose, messageId, email)}`;
  }

  private static parseRecipientToken(token: string): RecipientToken | null {
    const match = RECIPIENT_TOKEN.exec(token.toLowerCase());
    return match ? { messageId: `msg_${match[1]}`, tag: match[2], mac: match[3] } : null;
  }

  /** The recipient of `recipients` a token was made for, or null when it was made for none of them. */
  recipientOf(purpose: "unsubscribe", token: RecipientToken, recipients: readonly string[]): string | null {
    for (const email of recipients) {
      if (this.tag(email) !== token.tag) continue;
      if (timingSafeEqual(Buffer.from(this.mac(purpose, token.messageId, email)), Buffer.from(token.mac))) return addressKey(email);
    }
    return null;
  }

  clickUrl(messageId: string, url: string): string {
    return `${this.baseUrl}/t/c/${signToken(this.clickKey, { m: messageId, u: url } satisfies ClickToken)}`;
  }
  openUrl(messageId: string): string {
    return `${this.baseUrl}/t/o/${signToken(this.openKey, { m: messageId } satisfies OpenToken)}.gif`;
  }
  unsubscribeUrl(messageId: string, email: string): string {
    return `${this.baseUrl}/unsubscribe/${this.recipientToken("unsubscribe", messageId, email)}`;
  }
  /** The same token as the unsubscribe link's: the page it leads to asks for a button press before acting. */
  resubscribeUrl(unsubscribeToken: string): string {
    return `${this.baseUrl}/resubscribe/${unsubscribeToken}`;
  }

  readClick(token: string): ClickToken | null {
    const t = verifyToken<ClickToken>(this.clickKey, token);
    return t && typeof t.m === "string" && typeof t.u === "string" ? t : null;
  }
  readOpen(token: string): OpenToken | null {
    const t = verifyToken<OpenToken>(this.openKey, token.replace(/\.gif$/, ""));
    return t && typeof t.m === "string" ? t : null;
  }
  readUnsubscribe(raw: string): UnsubscribeLink | null {
    const token = LinkSigner.parseRecipientToken(raw);
    if (token) return { kind: "token", token };
    const t = verifyToken<LegacyUnsubscribeToken>(this.unsubscribeKey, raw);
    return t && typeof t.a === "string" && typeof t.e === "string" && typeof t.m === "string"
      ? { kind: "legacy", accountId: t.a, email: t.e, messageId: t.m }
      : null;
  }
}
