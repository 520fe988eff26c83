import { linkState } from "../domain/link-state.js";
import type { LinkRow } from "../store/links.js";
import type { DomainRow } from "../store/domains.js";
import type { ShortenerSettings } from "../settings.js";

/** The host name shown for a link's domain: the service's own short-link host, or the custom domain. */
export function domainName(settings: ShortenerSettings, domain: string): string {
  return domain === "" ? new URL(settings.baseUrl).host : domain;
}

function shortUrl(settings: ShortenerSettings, domain: string, code: string): string {
  return domain === "" ? `${settings.baseUrl}/${code}` : `${settings.customDomainScheme}://${domain}/${code}`;
}

export function linkView(row: LinkRow, settings: ShortenerSettings, now: Date) {
  return {
    code: row.code,
    short_url: shortUrl(settings, row.domain, row.code),
    url: row.url,
    domain: domainName(settings, row.domain),
    state: linkState({ deletedAt: row.deleted_at, expiresAt: row.expires_at, maxClicks: row.max_clicks, clicks: row.clicks }, now),
    redirect_type: row.redirect_status,
    fallback_url: row.fallback_url,
    expires_at: row.expires_at?.toISOString() ?? null,
    max_clicks: row.max_clicks,
    clicks: row.clicks,
    created_at: row.created_at.toISOString(),
    deleted_at: row.deleted_at?.toISOString() ?? null,
  };
}

export function domainView(row: DomainRow, settings: ShortenerSettings) {
  return {
    domain: row.domain,
    status: row.verified_at ? ("verified" as const) : ("pending" as const),
    cname_target: settings.edgeHost,
    verified_at: row.verified_at?.toISOString() ?? null,
    last_checked_at: row.last_checked_at?.toISOString() ?? null,
    last_check_error: row.last_check_error,
    created_at: row.created_at.toISOString(),
  };
}
