import { createHmac } from "node:crypto";
import { deriveKey } from "./tokens.js";

/**
 * On the platform's shared sending domain an account sends from one address of its own, `acct-<16 hex>@<domain>`:
 * 16 hex digits of a keyed hash (HMAC-SHA256, key from EMAIL_SECRET) of the account id, so no account can take
 * another's address (or `security@`, `billing@`) and the address does not reveal the account id. The display name
 * is the sender's choice; any other address needs a verified domain of the account.
 */
export class SharedSender {
  private readonly key: Buffer;

  constructor(
    secret: string,
    readonly domain: string,
  ) {
    this.key = deriveKey(secret, "shared-domain-sender");
  }

  addressOf(accountId: string): string {
    return `acct-${createHmac("sha256", this.key).update(accountId).digest("hex").slice(0, 16)}@${this.domain}`;
  }
}
