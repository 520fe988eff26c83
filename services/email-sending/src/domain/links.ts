import { deriveKey, signToken, verifyToken } from "./tokens.js";

/** The public links a message carries: open pixel, click redirect, unsubscribe. Each is a signed token. */

export interface ClickToken {
  m: string;
  u: string;
}
export interface OpenToken {
  m: string;
}
export interface UnsubscribeToken {
  a: string;
  e: string;
  m: string;
}

export class LinkSigner {
  private readonly clickKey: Buffer;
  private readonly openKey: Buffer;
  private readonly unsubscribeKey: Buffer;

  constructor(secret: string, private readonly baseUrl: string) {
    this.clickKey = deriveKey(secret, "click");
    this.openKey = deriveKey(secret, "open");
    this.unsubscribeKey = deriveKey(secret, "unsubscribe");
  }

  clickUrl(messageId: string, url: string): string {
    return `${this.baseUrl}/t/c/${signToken(this.clickKey, { m: messageId, u: url } satisfies ClickToken)}`;
  }
  openUrl(messageId: string): string {
    return `${this.baseUrl}/t/o/${signToken(this.openKey, { m: messageId } satisfies OpenToken)}.gif`;
  }
  unsubscribeUrl(accountId: string, email: string, messageId: string): string {
    return `${this.baseUrl}/unsubscribe/${signToken(this.unsubscribeKey, { a: accountId, e: email, m: messageId } satisfies UnsubscribeToken)}`;
  }

  readClick(token: string): ClickToken | null {
    const t = verifyToken<ClickToken>(this.clickKey, token);
    return t && typeof t.m === "string" && typeof t.u === "string" ? t : null;
  }
  readOpen(token: string): OpenToken | null {
    const t = verifyToken<OpenToken>(this.openKey, token.replace(/\.gif$/, ""));
    return t && typeof t.m === "string" ? t : null;
  }
  readUnsubscribe(token: string): UnsubscribeToken | null {
    const t = verifyToken<UnsubscribeToken>(this.unsubscribeKey, token);
    return t && typeof t.a === "string" && typeof t.e === "string" && typeof t.m === "string" ? t : null;
  }
}
