import { errors } from "@apiplat/service-kit";
import type { Queryable } from "@apiplat/storage";
import { normalizeHostname } from "../domain/hostname.js";
import { findOwnedLink, type LinkRow } from "../store/links.js";
import type { ShortenerSettings } from "../settings.js";

/** The domain key of a `domain` query parameter: '' for none or the service's own host. */
function domainKey(settings: ShortenerSettings, domainParam: string | undefined): string {
  const own = new URL(settings.baseUrl);
  if (domainParam === undefined || domainParam === own.host) return "";
  const host = normalizeHostname(domainParam);
  if (!host.ok) throw errors.validation("domain", host.issue);
  return host.host === own.hostname ? "" : host.host;
}

/** The caller's link with this code on this domain, or a 404 naming both. */
export async function ownedLink(
  db: Queryable,
  settings: ShortenerSettings,
  accountId: string,
  domainParam: string | undefined,
  code: string,
): Promise<LinkRow> {
  const link = await findOwnedLink(db, accountId, domainKey(settings, domainParam), code);
  if (!link) throw errors.notFound(`You have no link with the code ${code}${domainParam ? ` on ${domainParam}` : ""}.`);
  return link;
}
