import { errors } from "@apiplat/service-kit";
import { normalizeHostname } from "../domain/hostname.js";
import { findOwnedLink, type LinkRow } from "../store/links.js";
import type { Database } from "@apiplat/storage";
import type { ShortenerSettings } from "../settings.js";
import type { ClickRecorder } from "./click-recorder.js";
import type { LinkCache } from "./link-cache.js";
import type { LinkService } from "./link-service.js";
import type { LocalLookup } from "./local-lookup.js";
import type { Redirector } from "./redirector.js";
import type { CnameResolver } from "./domain-verification.js";
import type { CustomDomainIndex } from "./domain-index.js";

/** Everything the routes share, built once per app. */
export interface ShortenerCore {
  db: Database;
  settings: ShortenerSettings;
  now: () => Date;
  links: LinkCache;
  linkService: LinkService;
  clicks: ClickRecorder;
  redirector: Redirector;
  accountFallbacks: LocalLookup<string | null>;
  customDomains: CustomDomainIndex;
  dnsResolver: CnameResolver;
  checkFallback(url: string): Promise<void>;
  ownedLink(accountId: string, domainParam: string | undefined, code: string): Promise<LinkRow>;
}

/** The domain key of a `domain` query parameter: '' for none or the service's own host. */
export function domainKey(settings: ShortenerSettings, domainParam: string | undefined): string {
  const own = new URL(settings.baseUrl);
  if (domainParam === undefined || domainParam === own.host) return "";
  const host = normalizeHostname(domainParam);
  if (!host.ok) throw errors.validation("domain", host.issue);
  return host.host === own.hostname ? "" : host.host;
}

export function ownedLinkFinder(db: Database, settings: ShortenerSettings) {
  return async (accountId: string, domainParam: string | undefined, code: string): Promise<LinkRow> => {
    const link = await findOwnedLink(db, accountId, domainKey(settings, domainParam), code);
    if (!link) throw errors.notFound(`You have no link with the code ${code}${domainParam ? ` on ${domainParam}` : ""}.`);
    return link;
  };
}
