import type { Plan } from "@apiplat/config";
import { errors } from "@apiplat/errors";
import { createMemoryStore, DenyCache, type Admission, type AdmitRequest, type Database, type KeyValueStore } from "@apiplat/storage";
import { usageEntry, type UsageLog } from "./usage-log.js";
import { admitHardLimited, recordedInMonth, refundHardLimited, type UsageKey } from "./usage-store.js";

// Counters outlive their month by a day so that a late request near midnight still finds its own.
const COUNTER_TTL_SLACK_SECONDS = 86_400;
/** How long a replica trusts the shared counter's word that a hard limit is used up before asking PostgreSQL again. */
const EXHAUSTION_CHECK_MS = 10_000;
const EXHAUSTION_MAX_KEYS = 100_000;
const STORE_WARNING_INTERVAL_MS = 10_000;

export interface MeteredRequest {
  plan: Plan;
  usage: UsageKey;
  resetSeconds: number;
}

export type Decision =
  /** `hardLimited`: counted in PostgreSQL (BASIC), else in the usage log of `store`, the store that admitted it. */
  | { outcome: "admitted"; used: number; hardLimited: boolean; store: KeyValueStore }
  | { outcome: "rate_limited"; used: number; retryAfterSeconds: number }
  | { outcome: "quota_exceeded"; used: number };

export interface AdmissionsOptions {
  db: Database;
  kv: KeyValueStore;
  rateLimitsEnabled: boolean;
  /** Drains a store this process stops using (its own, once the shared one answers again). */
  usageLog: Pick<UsageLog, "drain">;
  warn: (message: string, error?: unknown) => void;
}

type Counted = Exclude<Admission, { outcome: "needs_seed" }>;

const quotaKey = (usage: UsageKey) => `quota:${usage.accountId}:${usage.service}:${usage.month}`;
const rateKey = (usage: UsageKey) => `rate:${usage.accountId}:${usage.service}`;

/**
 * Who may go ahead, for every plan, in one round trip to the shared store (Redis): the plan's per-second limit (GCRA,
 * shared by every replica) and the month's counter, which gives every replica the same X-RateLimit headers.
 *
 * A hard monthly limit (BASIC) is then counted in PostgreSQL, in the request's usage row (see usage-store.ts): Redis's
 * counter only refuses early, and is rebuilt from PostgreSQL when Redis loses it, so a limit never passes whatever
 * Redis loses. Plans that bill overage have nothing to refuse monthly: the same script counts them in the usage log
 * (see usage-log.ts), which reaches PostgreSQL within a second.
 *
 * In-process fast paths only refuse: a rate limit the store refused until some instant is refused here until then
 * (DenyCache), and a hard limit the store and PostgreSQL both found used up is refused for EXHAUSTION_CHECK_MS.
 * When the store fails, the counting goes on in this process (limits per replica, the month seeded from PostgreSQL)
 * and says so in the log, until the store answers again: the anchors' fault-tolerant choice (Kong, Envoy).
 */
export class Admissions {
  private readonly denied = new DenyCache();
  private readonly exhausted = new Map<string, number>();
  private readonly seeding = new Map<string, Promise<number>>();
  private fallback: KeyValueStore = createMemoryStore();
  private degraded = false;
  private lastWarning = 0;

  constructor(private readonly options: AdmissionsOptions) {}

  async admit(request: MeteredRequest, nowMs: number): Promise<Decision> {
    const { plan, usage } = request;
    const hardLimit = plan.overagePerRequest === null ? plan.monthlyRequests : null;
    const rate = this.options.rateLimitsEnabled ? { perSecond: plan.requestsPerSecond, burst: plan.requestsPerSecond } : null;
    const key = quotaKey(usage);
    const rateLimited = rate === null ? undefined : this.denied.refusal(rateKey(usage), nowMs);
    if (rateLimited) return { outcome: "rate_limited", used: rateLimited.note, retryAfterSeconds: Math.ceil(rateLimited.remainingMs / 1000) };
    const exhaustedUntil = this.exhausted.get(key);
    if (exhaustedUntil !== undefined && exhaustedUntil > nowMs && hardLimit !== null) return { outcome: "quota_exceeded", used: hardLimit };

    const admit: AdmitRequest = {
      rateKey: rateKey(usage),
      rate,
      quotaKey: key,
      quotaLimit: hardLimit,
      quotaTtlSeconds: request.resetSeconds + COUNTER_TTL_SLACK_SECONDS,
      usage: hardLimit === null ? usageEntry(usage) : undefined,
    };
    let { admission, store } = await this.counted(admit, usage);
    if (admission.outcome === "quota_exceeded" && hardLimit !== null && (await this.counterWasWrong(store, admit, usage, nowMs))) {
      ({ admission, store } = await this.counted(admit, usage));
    }
    if (admission.outcome === "rate_limited") {
      this.denied.refuse(admit.rateKey, nowMs, admission.retryAfterMs, admission.used);
      return { outcome: "rate_limited", used: admission.used, retryAfterSeconds: Math.max(1, Math.ceil(admission.retryAfterMs / 1000)) };
    }
    if (admission.outcome === "quota_exceeded") return admission;
    if (hardLimit === null) return { outcome: "admitted", used: admission.used, hardLimited: false, store };
    return this.admitDurably(store, admit, usage, hardLimit, nowMs);
  }

  /** Takes back an admitted request the platform failed: from the month's counter and from its usage, at once. */
  async refund(request: MeteredRequest, decision: Extract<Decision, { outcome: "admitted" }>): Promise<void> {
    if (!decision.hardLimited) return decision.store.refundRequest(quotaKey(request.usage), usageEntry(request.usage));
    await refundHardLimited(this.options.db, request.usage);
    await decision.store.refundRequest(quotaKey(request.usage)).catch(() => {});
  }

  /** The stores whose usage logs are drained: the shared one, and this process's own. */
  stores(): KeyValueStore[] {
    return [this.options.kv, this.fallback];
  }

  /** The hard limit's own count, in PostgreSQL; the shared counter follows it when the two disagree. */
  private async admitDurably(store: KeyValueStore, admit: AdmitRequest, usage: UsageKey, limit: number, nowMs: number): Promise<Decision> {
    let result: { admitted: boolean; used: number };
    try {
      result = await admitHardLimited(this.options.db, usage, limit);
    } catch (error) {
      void store.refundRequest(admit.quotaKey).catch(() => {});
      throw error;
    }
    if (result.admitted) return { outcome: "admitted", used: result.used, hardLimited: true, store };
    this.markExhausted(admit.quotaKey, nowMs);
    void store.set(admit.quotaKey, String(result.used), admit.quotaTtlSeconds).catch(() => {});
    return { outcome: "quota_exceeded", used: result.used };
  }

  /**
   * The shared counter says a hard limit is used up: believed when PostgreSQL confirmed it lately, else checked (a
   * counter left too high by a crash between the two counts would otherwise refuse for the rest of the month).
   */
  private async counterWasWrong(store: KeyValueStore, admit: AdmitRequest, usage: UsageKey, nowMs: number): Promise<boolean> {
    const checkedUntil = this.exhausted.get(admit.quotaKey);
    if (checkedUntil !== undefined && checkedUntil > nowMs) return false;
    // One check at a time: the refusals that come meanwhile believe the counter.
    this.markExhausted(admit.quotaKey, nowMs);
    const recorded = await recordedInMonth(this.options.db, usage.month, usage.accountId, usage.service);
    if (recorded >= admit.quotaLimit!) return false;
    this.exhausted.delete(admit.quotaKey);
    await store.set(admit.quotaKey, String(recorded), admit.quotaTtlSeconds);
    return true;
  }

  private markExhausted(key: string, nowMs: number): void {
    if (this.exhausted.size >= EXHAUSTION_MAX_KEYS) this.exhausted.clear();
    this.exhausted.set(key, nowMs + EXHAUSTION_CHECK_MS);
  }

  /** One admission on the shared store (seeded from PostgreSQL when it lost the month), or on this process's own. */
  private async counted(admit: AdmitRequest, usage: UsageKey): Promise<{ admission: Counted; store: KeyValueStore }> {
    let { admission, store } = await this.onStore(admit);
    if (admission.outcome === "needs_seed") {
      // The store lost the month (a Redis restart): what reached PostgreSQL, which is all of it but the last drain's.
      const seed = await this.recorded(admit.quotaKey, usage);
      ({ admission, store } = await this.onStore({ ...admit, seed }));
    }
    if (admission.outcome === "needs_seed") throw errors.unavailable("The request counter is unavailable; retry shortly.");
    return { admission, store };
  }

  /**
   * What PostgreSQL recorded for a counter the store lost, asked once for the requests that find it lost together: a
   * burst after a Redis restart (or at a process's first requests without Redis) would otherwise queue one query per
   * request for the pool's few connections, and time out behind a busy event loop.
   */
  private recorded(key: string, usage: UsageKey): Promise<number> {
    let pending = this.seeding.get(key);
    if (!pending) {
      pending = recordedInMonth(this.options.db, usage.month, usage.accountId, usage.service).finally(() => this.seeding.delete(key));
      this.seeding.set(key, pending);
    }
    return pending;
  }

  private async onStore(admit: AdmitRequest): Promise<{ admission: Admission; store: KeyValueStore }> {
    try {
      const admission = await this.options.kv.admitRequest(admit);
      this.recovered();
      return { admission, store: this.options.kv };
    } catch (error) {
      this.storeFailed(error);
      return { admission: await this.fallback.admitRequest(admit), store: this.fallback };
    }
  }

  private storeFailed(error: unknown): void {
    this.degraded = true;
    const now = Date.now();
    if (now - this.lastWarning < STORE_WARNING_INTERVAL_MS) return;
    this.lastWarning = now;
    this.options.warn(
      "the shared counter store (Redis) failed: per-second limits and monthly counters are kept in this process until it answers " +
        "again, so each replica allows the full rate and the X-RateLimit headers differ between replicas; hard limits stay exact (PostgreSQL)",
      error,
    );
  }

  /**
   * Back on the shared store: forget the counters this process kept alone, which would be stale at the next failure,
   * once the usage they logged is drained.
   */
  private recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    const stale = this.fallback;
    this.fallback = createMemoryStore();
    void this.options.usageLog.drain(stale).finally(() => stale.close());
    this.options.warn("the shared counter store (Redis) answers again: limits hold across replicas again");
  }

  close(): Promise<void> {
    return this.fallback.close();
  }
}
