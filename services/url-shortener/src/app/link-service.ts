import { randomBytes } from "node:crypto";
import { ApiError, errors, type PlanName } from "@apiplat/service-kit";
import { generateCode, isReservedCode } from "../domain/codes.js";
import { normalizeHostname } from "../domain/hostname.js";
import type { SafetyChecker, SafetyVerdict } from "../engine/safety.js";
import { normalizeUrl } from "../domain/url.js";
import { findDomain } from "../store/domains.js";
import { insertLink, insertLinks, softDeleteLink, updateLink, type LinkChanges, type LinkRow, type NewLink } from "../store/links.js";
import type { Queryable } from "@apiplat/storage";
import type { ShortenerSettings } from "../settings.js";
import type { LinkCache } from "../engine/link-cache.js";

export interface LinkInput {
  url: string;
  alias?: string;
  expires_at?: string;
  max_clicks?: number;
  fallback_url?: string;
  redirect_type?: 301 | 302;
  domain?: string;
}

interface LinkPatch {
  url?: string;
  expires_at?: string | null;
  max_clicks?: number | null;
  fallback_url?: string | null;
  redirect_type?: 301 | 302;
}

export interface Caller {
  accountId: string;
  plan: PlanName;
}

interface PreparedLink {
  url: string;
  fallbackUrl: string | null;
  alias: string | null;
  domain: string;
  expiresAt: Date | null;
  maxClicks: number | null;
  redirectStatus: 301 | 302;
}

const MAX_EXPIRY_YEARS = 10;
const GENERATION_ATTEMPTS = 5;

/** Creates links: validates what the schema cannot, checks safety once for a whole batch, allocates codes. */
export class LinkService {
  constructor(
    private readonly deps: {
      db: Queryable;
      settings: ShortenerSettings;
      safety: SafetyChecker;
      links: LinkCache;
      now: () => Date;
      /** Refuses URLs the outbound guard would never let us reach (throws an ApiError). */
      checkOutbound: (url: string, field: string) => Promise<void>;
      /** Random codes by default; tests pass a predictable sequence to exercise collisions. */
      generateCode?: (length: number) => string;
    },
  ) {}

  async create(caller: Caller, input: LinkInput): Promise<LinkRow> {
    const [result] = await this.createMany(caller, [input]);
    if (result instanceof ApiError) throw result;
    return result;
  }

  /** One result per input, in order: the link, or the error that stopped that one input. */
  async createMany(caller: Caller, inputs: readonly LinkInput[]): Promise<Array<LinkRow | ApiError>> {
    const prepared = await Promise.all(inputs.map((input) => this.prepare(caller, input).catch(asApiError)));
    const verdicts = await this.checkSafety(prepared);
    const results: Array<LinkRow | ApiError | undefined> = prepared.map((item, i) => (item instanceof ApiError ? item : verdicts[i]));
    const generated: number[] = [];
    for (let i = 0; i < prepared.length; i++) {
      const item = prepared[i];
      if (results[i] !== undefined || item instanceof ApiError) continue;
      if (item.alias === null) generated.push(i);
      else results[i] = await this.insertAlias(caller, item, item.alias).catch(asApiError);
    }
    const rows = await this.insertGenerated(
      caller,
      generated.map((i) => prepared[i] as PreparedLink),
    );
    generated.forEach((index, n) => (results[index] = rows[n]));
    return results as Array<LinkRow | ApiError>;
  }

  /** Changes a link's destination, fallback, expiry, click limit or redirect type; the same rules as creation. */
  async update(link: LinkRow, patch: LinkPatch): Promise<LinkRow> {
    if (link.deleted_at) throw errors.conflict(`The link ${link.code} is deleted; a deleted link cannot be changed.`);
    const changes: LinkChanges = { redirectStatus: patch.redirect_type };
    const toCheck: Array<[string, string]> = [];
    if (patch.url !== undefined) {
      changes.url = normalizedOrThrow(patch.url, "url");
      toCheck.push([changes.url, "url"]);
    }
    if (patch.fallback_url !== undefined) {
      changes.fallbackUrl = patch.fallback_url === null ? null : normalizedOrThrow(patch.fallback_url, "fallback_url");
      if (changes.fallbackUrl) toCheck.push([changes.fallbackUrl, "fallback_url"]);
    }
    if (patch.expires_at !== undefined) changes.expiresAt = patch.expires_at === null ? null : this.expiryOrThrow(patch.expires_at);
    if (patch.max_clicks !== undefined) changes.maxClicks = patch.max_clicks;
    for (const [url, field] of toCheck) await this.checkStandaloneUrl(url, field);
    const row = await updateLink(this.deps.db, link.id, changes);
    if (!row) throw errors.conflict(`The link ${link.code} is deleted; a deleted link cannot be changed.`);
    await this.deps.links.invalidate(row.domain, row.code);
    return row;
  }

  /**
   * Soft-deletes a link: it stops redirecting at once (its fallback applies) and its code is never reused. Null when
   * it was deleted already.
   */
  async remove(link: LinkRow): Promise<LinkRow | null> {
    const deleted = await softDeleteLink(this.deps.db, link.id, this.deps.now());
    if (deleted) await this.deps.links.invalidate(deleted.domain, deleted.code);
    return deleted;
  }

  /** The checks a stored URL outside a link gets (the account fallback): outbound guard and safety. */
  async checkStandaloneUrl(url: string, field: string): Promise<void> {
    await this.deps.checkOutbound(url, field);
    const [verdict] = await this.deps.safety.check([url]);
    const refused = refusal(verdict, field);
    if (refused) throw refused;
  }

  private async prepare(caller: Caller, input: LinkInput): Promise<PreparedLink> {
    const url = normalizedOrThrow(input.url, "url");
    const fallbackUrl = input.fallback_url === undefined ? null : normalizedOrThrow(input.fallback_url, "fallback_url");
    if (input.alias !== undefined && isReservedCode(input.alias)) {
      throw errors.validation("alias", "is a reserved word; choose another alias", `alias "${input.alias}" is reserved by the service.`);
    }
    const domain = await this.resolveDomain(caller, input.domain);
    await this.deps.checkOutbound(url, "url");
    if (fallbackUrl) await this.deps.checkOutbound(fallbackUrl, "fallback_url");
    return {
      url,
      fallbackUrl,
      alias: input.alias ?? null,
      domain,
      expiresAt: input.expires_at === undefined ? null : this.expiryOrThrow(input.expires_at),
      maxClicks: input.max_clicks ?? null,
      redirectStatus: input.redirect_type ?? 302,
    };
  }

  private expiryOrThrow(text: string): Date {
    const at = new Date(text);
    if (!/^\d{4}-\d{2}-\d{2}T/.test(text) || Number.isNaN(at.getTime())) {
      throw errors.validation("expires_at", "must be an ISO 8601 date-time such as 2030-01-31T12:00:00Z");
    }
    const now = this.deps.now();
    if (at.getTime() <= now.getTime()) throw errors.validation("expires_at", "must be in the future");
    const latest = new Date(now);
    latest.setUTCFullYear(latest.getUTCFullYear() + MAX_EXPIRY_YEARS);
    if (at.getTime() > latest.getTime()) {
      throw errors.validation("expires_at", `must be at most ${MAX_EXPIRY_YEARS} years in the future (omit it for a permanent link)`);
    }
    return at;
  }

  /** '' for the service's own host; a custom domain must be verified and belong to the caller (PRO and above). */
  private async resolveDomain(caller: Caller, requested: string | undefined): Promise<string> {
    if (requested === undefined) return "";
    const host = normalizeHostname(requested);
    if (!host.ok) throw errors.validation("domain", host.issue);
    if (host.host === new URL(this.deps.settings.baseUrl).hostname) return "";
    requireCustomDomainPlan(caller);
    const row = await findDomain(this.deps.db, host.host);
    if (!row || row.account_id !== caller.accountId || !row.verified_at) {
      throw errors.unprocessable(`${host.host} is not a verified custom domain of your account: register it with POST /domains and verify its CNAME first.`, [
        { field: "domain", issue: "must be a verified custom domain of your account" },
      ]);
    }
    return host.host;
  }

  private async checkSafety(prepared: ReadonlyArray<PreparedLink | ApiError>): Promise<Array<ApiError | undefined>> {
    const urls: string[] = [];
    for (const item of prepared) {
      if (item instanceof ApiError) continue;
      urls.push(item.url);
      if (item.fallbackUrl) urls.push(item.fallbackUrl);
    }
    const verdictOf = new Map<string, SafetyVerdict>();
    const verdicts = await this.deps.safety.check(urls);
    urls.forEach((url, i) => verdictOf.set(url, verdicts[i]));
    return prepared.map((item) => {
      if (item instanceof ApiError) return undefined;
      return refusal(verdictOf.get(item.url), "url") ?? (item.fallbackUrl ? refusal(verdictOf.get(item.fallbackUrl), "fallback_url") : undefined);
    });
  }

  private freshCode(length: number): string {
    const generate = this.deps.generateCode ?? ((codeLength: number) => generateCode(codeLength, randomBytes));
    for (;;) {
      const code = generate(length);
      if (!isReservedCode(code)) return code;
    }
  }

  private newLink(caller: Caller, link: PreparedLink, code: string): NewLink {
    return {
      accountId: caller.accountId,
      domain: link.domain,
      code,
      url: link.url,
      fallbackUrl: link.fallbackUrl,
      redirectStatus: link.redirectStatus,
      expiresAt: link.expiresAt,
      maxClicks: link.maxClicks,
      createdAt: this.deps.now(),
    };
  }

  private async insertAlias(caller: Caller, link: PreparedLink, alias: string): Promise<LinkRow> {
    const row = await insertLink(this.deps.db, this.newLink(caller, link, alias));
    if (!row) {
      throw errors.conflict(`The alias "${alias}" is already taken on this domain (aliases are unique regardless of letter case).`, [
        { field: "alias", issue: "is already taken" },
      ]);
    }
    await this.deps.links.invalidateMany([row]);
    return row;
  }

  /**
   * Gives each link a fresh random code, all in one INSERT; links whose code happened to be taken get a new
   * code and are tried again (after five rounds, with one character more).
   */
  private async insertGenerated(caller: Caller, links: readonly PreparedLink[]): Promise<LinkRow[]> {
    const rows: LinkRow[] = new Array(links.length);
    let pending = links.map((_, i) => i);
    for (let round = 0; pending.length > 0; round++) {
      if (round === GENERATION_ATTEMPTS * 2) throw errors.unavailable("Could not allocate free short codes; retry the request.");
      const length = this.deps.settings.codeLength + (round < GENERATION_ATTEMPTS ? 0 : 1);
      const candidates = pending.map((i) => this.newLink(caller, links[i], this.freshCode(length)));
      const inserted = await insertLinks(this.deps.db, candidates);
      const byCode = new Map(inserted.map((row) => [row.code, row]));
      const stillPending: number[] = [];
      pending.forEach((index, n) => {
        const row = byCode.get(candidates[n].code);
        if (row) rows[index] = row;
        else stillPending.push(index);
      });
      pending = stillPending;
      await this.deps.links.invalidateMany(inserted);
    }
    return rows;
  }
}

export function requireCustomDomainPlan(caller: Caller): void {
  if (caller.plan === "BASIC") {
    throw errors.forbidden("PLAN_UPGRADE_REQUIRED", "Custom domains need the PRO plan or higher; your plan is BASIC.");
  }
}

function normalizedOrThrow(input: string, field: string): string {
  const result = normalizeUrl(input);
  if (!result.ok) throw errors.validation(field, result.issue);
  return result.url;
}

function refusal(verdict: SafetyVerdict | undefined, field: string): ApiError | undefined {
  if (!verdict || verdict.kind === "safe") return undefined;
  if (verdict.kind === "unavailable") {
    return errors.unavailable(`The URL safety check is unavailable (${verdict.reason}); the link was not created. Retry shortly.`);
  }
  const why =
    verdict.source === "service_domain"
      ? "points at this link shortener itself (a redirect loop)"
      : verdict.source === "blocklist"
        ? `is on a blocklist as ${verdict.threatType}`
        : `is flagged by Google Safe Browsing as ${verdict.threatType}`;
  return errors.unsafeUrl(`The ${field} ${why}; the link was not created.`, [{ field, issue: `flagged: ${verdict.threatType}` }]);
}

function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  throw error;
}
