import { generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import type { Database } from "@apiplat/storage";
import { decryptPrivateKey, encryptPrivateKey, IV_BYTES, selectorFor } from "../domain/dkim-keys.js";
import { returnPathHost, type PlatformDomains } from "../domain/dns-records.js";
import { findDomain, insertDomain, PLATFORM_ACCOUNT, type DomainRow } from "../store/domains.js";

const generateRsa = promisify(generateKeyPair);

interface SigningIdentity {
  domain: string;
  selector: string;
  privateKey: string;
  /** The domain of the VERP return path: the sender's own bounce subdomain once its CNAME is verified. */
  bounceDomain: string;
}

interface NewKeys {
  selector: string;
  publicKey: string;
  privateKeyEnc: string;
}

const CACHE_MS = 60_000;

/**
 * DKIM keys: generated at domain registration (RSA 2048), stored encrypted, decrypted when a message is signed (kept
 * decrypted in memory for a minute so that a burst does not decrypt per message).
 */
export class SigningKeys {
  private readonly cache = new Map<string, { identity: SigningIdentity; until: number }>();

  constructor(
    private readonly db: Database,
    private readonly secret: string,
    private readonly defaultDomain: string,
    private readonly platform: PlatformDomains,
    private readonly now: () => Date,
  ) {}

  async generate(): Promise<NewKeys> {
    const { publicKey, privateKey } = await generateRsa("rsa", { modulusLength: 2048 });
    return {
      selector: selectorFor(this.now()),
      publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64"),
      privateKeyEnc: encryptPrivateKey(this.secret, privateKey.export({ type: "pkcs8", format: "pem" }).toString(), randomBytes(IV_BYTES)),
    };
  }

  /** The service's own default domain has its key from the first start on. */
  async ensurePlatformDomain(): Promise<DomainRow> {
    const existing = await findDomain(this.db, PLATFORM_ACCOUNT, this.defaultDomain);
    if (existing) return existing;
    const keys = await this.generate();
    const at = this.now();
    await insertDomain(this.db, {
      account_id: PLATFORM_ACCOUNT,
      domain: this.defaultDomain,
      dkim_selector: keys.selector,
      dkim_public_key: keys.publicKey,
      dkim_private_key_enc: keys.privateKeyEnc,
      spf_verified: true,
      dkim_verified: true,
      return_path_verified: false,
      verified_at: at,
      last_checked_at: null,
      created_at: at,
    });
    return (await findDomain(this.db, PLATFORM_ACCOUNT, this.defaultDomain))!;
  }

  async forSending(accountId: string, domain: string): Promise<SigningIdentity> {
    const cacheKey = `${accountId}\n${domain}`;
    const hit = this.cache.get(cacheKey);
    if (hit && hit.until > Date.now()) return hit.identity;
    const row = (await findDomain(this.db, accountId, domain)) ?? (domain === this.defaultDomain ? await findDomain(this.db, PLATFORM_ACCOUNT, domain) : null);
    if (!row) throw new Error(`the sending domain ${domain} is no longer registered`);
    const identity = {
      domain: row.domain,
      selector: row.dkim_selector,
      privateKey: decryptPrivateKey(this.secret, row.dkim_private_key_enc),
      bounceDomain: row.return_path_verified ? returnPathHost(row.domain) : this.platform.bounceHost,
    };
    this.cache.set(cacheKey, { identity, until: Date.now() + CACHE_MS });
    return identity;
  }

  forget(accountId: string, domain: string): void {
    this.cache.delete(`${accountId}\n${domain}`);
  }
}
