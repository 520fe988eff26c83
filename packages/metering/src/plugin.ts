import fp from "fastify-plugin";
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import { PLANS, type Plan } from "@apiplat/config";
import { errors, isApiError } from "@apiplat/errors";
import { addPlatformHook } from "@apiplat/gateway-auth";
import type { Database, KeyValueStore } from "@apiplat/storage";
import { Admissions, type Decision, type MeteredRequest } from "./admission.js";
import { isPlatformFailure } from "./billable.js";
import { MonthCalendar } from "./calendar.js";
import { UsageLog } from "./usage-log.js";

export interface MeteringOptions {
  service: string;
  db: Database;
  kv: KeyValueStore;
  now: () => Date;
  /** How often the usage log is drained to PostgreSQL (METERING_FLUSH_MS); 0: only on flush() and close. */
  flushIntervalMs: number;
  rateLimitsEnabled: boolean;
}

/** An admitted request, until its answer says whether the platform failed it. */
interface Metered extends MeteredRequest {
  decision: Extract<Decision, { outcome: "admitted" }>;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The usage log's drain: `flush()` moves what is counted to PostgreSQL now. */
    usage: UsageLog;
  }
  interface FastifyRequest {
    /** Set by metering on an admitted request, for its answer to give it back if the platform failed it. */
    metered: Metered | null;
  }
}

function setQuotaHeaders(reply: FastifyReply, plan: Plan, used: number, resetSeconds: number): void {
  reply.header("x-ratelimit-requests-limit", plan.monthlyRequests);
  reply.header("x-ratelimit-requests-remaining", Math.max(0, plan.monthlyRequests - used));
  reply.header("x-ratelimit-requests-reset", resetSeconds);
}

/**
 * Quota, per-second limit and billable usage for every authenticated route. Runs after gateway-auth. A request refused
 * with 429 is not counted; an admitted one is counted as it is admitted (see Admissions), and given back when its
 * answer is the platform's own failure (see billable.ts).
 */
export const metering = fp<MeteringOptions>(
  async (app, options) => {
    let admissions: Admissions | undefined;
    const usageLog = new UsageLog(
      options.db,
      () => admissions?.stores() ?? [options.kv],
      options.flushIntervalMs,
      (error) => app.log.error({ err: error }, "moving usage to PostgreSQL failed; it stays in the usage log and is moved later"),
    );
    admissions = new Admissions({
      db: options.db,
      kv: options.kv,
      rateLimitsEnabled: options.rateLimitsEnabled,
      usageLog,
      warn: (message, error) => app.log.warn({ err: error }, message),
    });
    usageLog.start();
    const calendar = new MonthCalendar();
    app.decorate("usage", usageLog);
    app.decorateRequest("metered", null);
    app.addHook("onClose", async () => {
      await usageLog.close();
      await admissions.close();
    });

    const unavailable = (error: unknown, request: FastifyRequest) => {
      if (isApiError(error)) return error;
      request.log.error({ err: error }, "admitting a metered request failed");
      return errors.unavailable("The request counter is unavailable; retry shortly.");
    };

    const meterRoute =
      (routeEndpoint: string | null): onRequestHookHandler =>
      (request, reply, done) => {
        const { accountId, keyId, plan: planName } = request.subscriber;
        const plan = PLANS[planName];
        const now = options.now();
        const { month, resetSeconds } = calendar.at(now);
        const endpoint = routeEndpoint ?? `${request.method} ${request.routeOptions.url}`;
        const metered: MeteredRequest = { plan, resetSeconds, usage: { month, accountId, keyId, service: options.service, endpoint } };
        // Real time, not the injected clock: refusals last as long as Redis's clock says (the clock names the month).
        admissions.admit(metered, Date.now()).then(
          (decision) => {
            setQuotaHeaders(reply, plan, decision.used, resetSeconds);
            if (decision.outcome === "quota_exceeded") return done(errors.quotaExceeded(plan.monthlyRequests, resetSeconds));
            if (decision.outcome === "rate_limited") return done(errors.rateLimited(plan.requestsPerSecond, decision.retryAfterSeconds));
            request.metered = { ...metered, decision };
            done();
          },
          (error) => done(unavailable(error, request)),
        );
      };

    // A request the platform failed is given back before its answer goes out, so that the answer's headers and a
    // request sent right after it see the count without it.
    app.addHook("onSend", (request, reply, payload, done) => {
      const metered = request.metered;
      if (!metered || !isPlatformFailure(reply.statusCode)) return done(null, payload);
      request.metered = null;
      setQuotaHeaders(reply, metered.plan, metered.decision.used - 1, metered.resetSeconds);
      admissions.refund(metered, metered.decision).then(
        () => done(null, payload),
        (error) => {
          request.log.error({ err: error, usage: metered.usage }, "giving back a failed request failed: it stays counted");
          done(null, payload);
        },
      );
    });

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
