import type { Database } from "@apiplat/storage";
import type { CnameResolver } from "../engine/domain-verification.js";
import { verifyCname } from "../engine/domain-verification.js";
import type { CustomDomainIndex } from "../engine/domain-index.js";
import type { ShortenerSettings } from "../settings.js";
import { recordVerification, type DomainRow } from "../store/domains.js";

export interface DomainVerification {
  db: Database;
  settings: ShortenerSettings;
  now: () => Date;
  dnsResolver: CnameResolver;
  /** The verified custom domains the redirects serve: told when one is checked again. */
  customDomains: CustomDomainIndex;
}

/** Looks up the domain's CNAME, records the outcome and tells every replica's index; gives the domain's new row. */
export async function verifyDomain({ db, settings, now, dnsResolver, customDomains }: DomainVerification, domain: string): Promise<DomainRow> {
  const result = await verifyCname(dnsResolver, domain, settings.edgeHost);
  const row = await recordVerification(db, domain, now(), result.verified ? null : result.reason);
  await customDomains.changed();
  return row;
}
