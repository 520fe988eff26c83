import fp from "fastify-plugin";
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import { PLANS, type Plan } from "@apiplat/config";
import { errors } from "@apiplat/errors";
import { addPlatformHook } from "@apiplat/gateway-auth";
import type { Admission, AdmitRequest, Database, KeyValueStore } from "@apiplat/storage";
import { MonthCalendar } from "./calendar.js";
import { LocalCounters } from "./local-counters.js";
import { UsageRecorder } from "./usage-recorder.js";

export interface MeteringOptions {
  service: string;
  db: Database;
  kv: KeyValueStore;
  now: () => Date;
  flushIntervalMs: number;
  rateLimitsEnabled: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    usage: UsageRecorder;
  }
}

// Counters outlive their month by a day so that a late request near midnight still finds its own.
const COUNTER_TTL_SLACK_SECONDS = 86_400;
type Counted = Exclude<Admission, { outcome: "needs_seed" }>;

// How stale another process may see a paid plan's monthly counter (the Remaining header); billing is exact.
const LOCAL_SYNC_INTERVAL_MS = 250;

function setQuotaHeaders(reply: FastifyReply, plan: Plan, used: number, resetSeconds: number): void {
  reply.header("x-ratelimit-requests-limit", plan.monthlyRequests);
  reply.header("x-ratelimit-requests-remaining", Math.max(0, plan.monthlyRequests - used));
  reply.header("x-ratelimit-requests-reset", resetSeconds);
}

/**
 * Quota, per-second limit and billable usage for every authenticated route. Runs after gateway-auth.
 * A request refused with 429 is not counted; every admitted request is, whatever its status.
 *
 * A hard monthly limit (BASIC) is checked and counted in the shared store on every request, with the
 * per-second window, in one atomic script: parallel requests cannot pass it on any number of processes.
 * Plans that bill overage have nothing to refuse monthly, so their per-second window is counted in this
 * process (the limit holds per service instance) and their monthly counter is synced every 250 ms.
 */
export const metering = fp<MeteringOptions>(
  async (app, options) => {
    const recorder = new UsageRecorder(options.db, options.flushIntervalMs, (error) =>
      app.log.error({ err: error }, "usage flush failed; counts kept for the next flush"),
    );
    recorder.start();
    const calendar = new MonthCalendar();
    app.decorate("usage", recorder);
    app.addHook("onClose", async () => recorder.close());

    const local = new LocalCounters(options.kv, LOCAL_SYNC_INTERVAL_MS, (error) =>
      app.log.warn({ err: error }, "monthly counter sync failed; retrying at the next sync"),
    );
    local.start();
    app.addHook("onClose", async () => local.close());

    const recordedThisMonth = async (month: string, accountId: string): Promise<number> => {
      const { rows } = await options.db.query<{ total: number }>(
        "SELECT coalesce(sum(requests), 0)::bigint AS total FROM usage_counts WHERE month = $1 AND account_id = $2 AND service = $3",
        [month, accountId, options.service],
      );
      return Number(rows[0].total) + recorder.unflushed(month, accountId, options.service);
    };

    /** One round trip to the shared store, seeding its monthly counter from PostgreSQL when it has none. */
    const admitShared = async (admit: AdmitRequest, month: string, accountId: string): Promise<Counted> => {
      const unavailable = () => errors.unavailable("The request counter is unavailable; retry shortly.");
      let admission = await options.kv.admitRequest(admit).catch(() => {
        throw unavailable();
      });
      if (admission.outcome === "needs_seed") {
        const seed = await recordedThisMonth(month, accountId);
        admission = await options.kv.admitRequest({ ...admit, seed }).catch(() => {
          throw unavailable();
        });
      }
      if (admission.outcome === "needs_seed") throw unavailable();
      return admission;
    };

    /** Counts an admitted request for billing and sets the quota headers. */
    const admitted = (request: FastifyRequest, reply: FastifyReply, plan: Plan, used: number, month: string, resetSeconds: number, endpoint: string) => {
      setQuotaHeaders(reply, plan, used, resetSeconds);
      const { accountId, keyId } = request.subscriber;
      recorder.record({ month, accountId, keyId, service: options.service, endpoint });
    };

    // A callback hook: a paid plan whose month this process already counts takes a synchronous path (no promise,
    // no round trip); a hard limit (BASIC) and a first request of the month go to the shared store.
    const meterRoute = (routeEndpoint: string | null): onRequestHookHandler => (request, reply, done) => {
      const { accountId, plan: planName } = request.subscriber;
      const plan = PLANS[planName];
      const endpoint = routeEndpoint ?? `${request.method} ${request.routeOptions.url}`;
      const now = options.now();
      const nowMs = now.getTime();
      const second = Math.floor(nowMs / 1000);
      const { month, resetSeconds } = calendar.at(now);
      const quotaKey = `quota:${accountId}:${options.service}:${month}`;
      const quotaTtlSeconds = resetSeconds + COUNTER_TTL_SLACK_SECONDS;
      const ratePerSecond = options.rateLimitsEnabled ? plan.requestsPerSecond : null;
      const rateKey = ratePerSecond === null ? "" : `rate:${accountId}:${options.service}:${second}`;

      if (plan.overagePerRequest === null) {
        const admit: AdmitRequest = { rateKey, ratePerSecond, quotaKey, quotaLimit: plan.monthlyRequests, quotaTtlSeconds };
        admitShared(admit, month, accountId).then((admission) => {
          setQuotaHeaders(reply, plan, admission.used, resetSeconds);
          if (admission.outcome === "quota_exceeded") return done(errors.quotaExceeded(plan.monthlyRequests, resetSeconds));
          if (admission.outcome === "rate_limited") return done(errors.rateLimited(plan.requestsPerSecond, 1));
          admitted(request, reply, plan, admission.used, month, resetSeconds, endpoint);
          done();
        }, done);
        return;
      }
      if (ratePerSecond !== null && !local.takeFromSecond(rateKey, second, ratePerSecond)) {
        return done(errors.rateLimited(plan.requestsPerSecond, 1));
      }
      const counted = local.countInMonth(quotaKey, nowMs);
      if (counted !== null) {
        admitted(request, reply, plan, counted, month, resetSeconds, endpoint);
        return done();
      }
      const admit: AdmitRequest = { rateKey, ratePerSecond: null, quotaKey, quotaLimit: null, quotaTtlSeconds };
      admitShared(admit, month, accountId).then((admission) => {
        local.adoptMonth(quotaKey, admission.used, quotaTtlSeconds, nowMs);
        admitted(request, reply, plan, admission.used, month, resetSeconds, endpoint);
        done();
      }, done);
    };

    // Only authenticated routes are metered, decided once per route. The endpoint is known then too, unless the
    // route serves several methods.
    app.addHook("onRoute", (route) => {
      if (route.config?.public) return;
      const endpoint = typeof route.method === "string" ? `${route.method} ${route.url}` : null;
      addPlatformHook(route, meterRoute(endpoint));
    });
  },
  { name: "metering", dependencies: ["gateway-auth"] },
);
