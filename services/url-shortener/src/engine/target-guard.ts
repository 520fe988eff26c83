import { ApiError, errors } from "@apiplat/service-kit";
import type { OutboundClient } from "@apiplat/outbound-guard";
import { LruCache } from "../domain/lru.js";
import { hostOf } from "../domain/url.js";

const VERDICT_TTL_MS = 300_000;
const DNS_WAIT_MS = 2_000;

/**
 * Refuses link targets on private, loopback, link-local or metadata addresses through the outbound guard.
 * The service never fetches a target, so a host that does not resolve (yet), or whose DNS answers slowly,
 * is accepted as a possibly broken link. Verdicts are kept per host for five minutes: a bulk request of
 * one hundred URLs on one host costs one DNS lookup.
 */
export class TargetGuard {
  private readonly verdicts = new LruCache<Promise<string | null>>(10_000);

  constructor(private readonly outbound: OutboundClient) {}

  async check(url: string, field: string): Promise<void> {
    const parsed = new URL(url);
    const key = `${parsed.protocol}//${hostOf(parsed)}`;
    let verdict = this.verdicts.get(key);
    if (!verdict) {
      verdict = this.judge(`${parsed.protocol}//${parsed.host}/`);
      this.verdicts.set(key, verdict, VERDICT_TTL_MS);
    }
    const issue = await verdict;
    if (issue) throw errors.validation(field, issue);
  }

  /** The issue that refuses the host, or null when it may be linked to. */
  private async judge(origin: string): Promise<string | null> {
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), DNS_WAIT_MS).unref());
    const check = this.outbound.check(origin).then(
      () => null,
      (error: unknown) => {
        // Only a refusal by policy (a 400) refuses the link; a host that does not resolve is an upstream failure.
        if (!(error instanceof ApiError) || error.statusCode >= 500) return null;
        return error.details?.[0]?.issue ?? error.message;
      },
    );
    return Promise.race([check, timeout]);
  }
}
