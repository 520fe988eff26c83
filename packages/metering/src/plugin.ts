import fp from "fastify-plugin";
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import { PLANS, type Plan } from "@apiplat/config";
import { errors, isApiError } from "@apiplat/errors";
import { addPlatformHook } from "@apiplat/gateway-auth";
import type { Database, KeyValueStore } from "@apiplat/storage";
import { Admissions, type Decision, type MeteredRequest } from "./admission.js";
import { isPlatformFailure } from "./billable.js";
import { MonthCalendar } from "./calendar.js";
import { UsageRecorder } from "./usage-recorder.js";

export interface MeteringOptions {
  service: string;
  db: Database;
  kv: KeyValueStore;
  now: () => Date;
  /** 0: usage is durable before each answer (group commit); N > 0: written behind every N ms (see UsageRecorder). */
  flushIntervalMs: number;
  rateLimitsEnabled: boolean;
  /** The longest an answer waits for its usage to be written (default 2 s). */
  commitTimeoutMs?: number;
}

/** An admitted request, until its answer settles what it is billed. */
interface Metered extends MeteredRequest {
  decision: Extract<Decision, { outcome: "admitted" }>;
  settle(metered: Metered, status: number, done: () => void): void;
}

declare module "fastify" {
  interface FastifyInstance {
    usage: UsageRecorder;
  }
  interface FastifyRequest {
    /** Set by metering on an admitted request; cleared once its answer settled what is billed. */
    metered: Metered | null;
  }
}

function setQuotaHeaders(reply: FastifyReply, plan: Plan, used: number, resetSeconds: number): void {
  reply.header("x-ratelimit-requests-limit", plan.monthlyRequests);
  reply.header("x-ratelimit-requests-remaining", Math.max(0, plan.monthlyRequests - used));
  reply.header("x-ratelimit-requests-reset", resetSeconds);
}

/**
 * Bills an admitted request by the status of its answer, once: a platform failure (see billable.ts) is taken back from
 * the counters, anything else is recorded as usage. Resolves when that is durable. Runs as the answer goes out; a route
 * that hijacks its reply (and so skips the hooks) calls it itself before writing.
 */
export function settleUsage(request: FastifyRequest, status: number): Promise<void> {
  const metered = request.metered;
  if (!metered) return Promise.resolve();
  request.metered = null;
  return new Promise((resolve) => metered.settle(metered, status, resolve));
}

/**
 * Quota, per-second limit and billable usage for every authenticated route. Runs after gateway-auth. A request refused
 * with 429 is not counted; an admitted one is billed by its answer (see settleUsage), which waits until it is durable.
 */
export const metering = fp<MeteringOptions>(
  async (app, options) => {
    const recorder = new UsageRecorder(options.db, {
      writeBehindMs: options.flushIntervalMs,
      commitTimeoutMs: options.commitTimeoutMs ?? 2_000,
      onError: (error) => app.log.error({ err: error }, "writing usage failed; the counts are kept and written again"),
    });
    recorder.start();
    const admissions = new Admissions({
      db: options.db,
      kv: options.kv,
      rateLimitsEnabled: options.rateLimitsEnabled,
      unflushed: (month, accountId, service) => recorder.unflushed(month, accountId, service),
      warn: (message, error) => app.log.warn({ err: error }, message),
    });
    const calendar = new MonthCalendar();
    app.decorate("usage", recorder);
    app.decorateRequest("metered", null);
    app.addHook("onClose", async () => {
      await recorder.close();
      await admissions.close();
    });

    // A callback, not a promise: it runs on every metered request.
    const settle = (metered: Metered, status: number, done: () => void): void => {
      if (!isPlatformFailure(status)) {
        if (metered.decision.durable || !recorder.record(metered.usage, done)) done();
        return;
      }
      admissions.refund(metered, metered.decision).then(done, (error) => {
        app.log.error({ err: error, usage: metered.usage }, "refunding a failed request failed: it stays counted");
        done();
      });
    };

    const unavailable = (error: unknown, request: FastifyRequest) => {
      if (isApiError(error)) return error;
      request.log.error({ err: error }, "admitting a metered request failed");
      return errors.unavailable("The request counter is unavailable; retry shortly.");
    };

    const meterRoute = (routeEndpoint: string | null): onRequestHookHandler => (request, reply, done) => {
      const { accountId, keyId, plan: planName } = request.subscriber;
      const plan = PLANS[planName];
      const now = options.now();
      const { month, resetSeconds } = calendar.at(now);
      const endpoint = routeEndpoint ?? `${request.method} ${request.routeOptions.url}`;
      const metered: MeteredRequest = { plan, resetSeconds, usage: { month, accountId, keyId, service: options.service, endpoint } };
      admissions.admit(metered, now.getTime()).then((decision) => {
        setQuotaHeaders(reply, plan, decision.used, resetSeconds);
        if (decision.outcome === "quota_exceeded") return done(errors.quotaExceeded(plan.monthlyRequests, resetSeconds));
        if (decision.outcome === "rate_limited") return done(errors.rateLimited(plan.requestsPerSecond, decision.retryAfterSeconds));
        request.metered = { ...metered, decision, settle };
        done();
      }, (error) => done(unavailable(error, request)));
    };

    // The answer settles the bill: before it goes out, so that nothing answered is lost with the process.
    app.addHook("onSend", (request, reply, payload, done) => {
      const metered = request.metered;
      if (!metered) return done(null, payload);
      // A request given back is not in the count the headers show.
      if (isPlatformFailure(reply.statusCode)) setQuotaHeaders(reply, metered.plan, metered.decision.used - 1, metered.resetSeconds);
      request.metered = null;
      metered.settle(metered, reply.statusCode, () => done(null, payload));
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
