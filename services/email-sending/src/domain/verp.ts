import { createHmac, timingSafeEqual } from "node:crypto";
import { addressKey } from "./addresses.js";
import { deriveKey } from "./tokens.js";

/**
 * Per-recipient return paths (VERP, as large senders do): every recipient's copy leaves with its own envelope sender
 * `bounces+<message id>.<recipient tag>.<mac>@<bounce domain>`, where
 * - the recipient tag is 8 hex digits of a keyed hash of the recipient's address (the address itself never shows),
 * - the mac is 16 hex digits (64 bits) of HMAC-SHA256 over the message id and the recipient's address.
 * A report that comes back to that address speaks of that recipient of that message and of no one else. Lower-case
 * hex only: some MTAs change the case of a local part. The local part is 62 characters (RFC 5321 allows 64).
 */

interface VerpAddress {
  messageId: string;
  tag: string;
  mac: string;
}

const VERP = /^bounces\+(msg_[0-9a-f]{24})\.([0-9a-f]{8})\.([0-9a-f]{16})@/i;

export class ReturnPaths {
  private readonly tagKey: Buffer;
  private readonly macKey: Buffer;

  constructor(secret: string) {
    this.tagKey = deriveKey(secret, "verp-recipient-tag");
    this.macKey = deriveKey(secret, "verp-return-path");
  }

  tag(recipient: string): string {
    return createHmac("sha256", this.tagKey).update(addressKey(recipient)).digest("hex").slice(0, 8);
  }

  private mac(messageId: string, recipient: string): string {
    return createHmac("sha256", this.macKey)
      .update(`${messageId}\n${addressKey(recipient)}`)
      .digest("hex")
      .slice(0, 16);
  }

  address(messageId: string, recipient: string, bounceDomain: string): string {
    return `bounces+${messageId}.${this.tag(recipient)}.${this.mac(messageId, recipient)}@${bounceDomain}`;
  }

  /** The parts of a return path in our form, or null; says nothing yet about whether it is genuine. */
  static parse(address: string): VerpAddress | null {
    const match = VERP.exec(address.trim().replace(/^<|>$/g, ""));
    return match ? { messageId: match[1].toLowerCase(), tag: match[2].toLowerCase(), mac: match[3].toLowerCase() } : null;
  }

  /** The recipient of `recipients` this return path was made for, or null when it was made for none of them. */
  recipientOf(verp: VerpAddress, recipients: readonly string[]): string | null {
    for (const recipient of recipients) {
      if (this.tag(recipient) !== verp.tag) continue;
      const expected = Buffer.from(this.mac(verp.messageId, recipient));
      if (timingSafeEqual(expected, Buffer.from(verp.mac))) return addressKey(recipient);
    }
    return null;
  }
}
