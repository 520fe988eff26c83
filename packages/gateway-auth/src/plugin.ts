import { timingSafeEqual } from "node:crypto";
import fp from "fastify-plugin";
import type { FastifyInstance, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler, RouteOptions } from "fastify";
import { isPlanName, type PlanName } from "@apiplat/config";
import { errors } from "@apiplat/errors";
import type { KeyValueStore } from "@apiplat/storage";
import type { AccountStore, KeyGrant } from "./account-store.js";
import { hashApiKey } from "./keys.js";
import { TtlCache } from "./ttl-cache.js";

/** Who is calling an authenticated route. Everything a service stores belongs to `accountId`. */
export interface Subscriber {
  accountId: string;
  /** The key used; the nil UUID in marketplace-proxy mode, where the marketplace holds the keys. */
  keyId: string;
  plan: PlanName;
  service: string;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set on every authenticated route (routes with `config.public` have none). */
    subscriber: Subscriber;
  }
  interface FastifyContextConfig {
    /** A public path: no gateway headers, not metered. */
    public?: boolean;
  }
}

export const PROXY_KEY_ID = "00000000-0000-0000-0000-000000000000";

/** The channel on which a change to a key or an account's plans is announced to every service process. */
export const GRANT_CHANGES_CHANNEL = "gateway-auth:grant-changes";

/** A key revoked, or an account's subscriptions changed. */
export type GrantChange = { keyId: string } | { accountId: string };

/**
 * Tells every service process to forget what it cached about a key or an account, so that a revocation is refused at
 * once everywhere. Best effort: if the announcement is lost (Redis away), the cache lifetime bounds the delay.
 */
export async function announceGrantChange(kv: KeyValueStore, change: GrantChange): Promise<void> {
  await kv.publish(GRANT_CHANGES_CHANNEL, JSON.stringify(change));
}
const KEY_CACHE_SIZE = 10_000;

export interface GatewayAuthOptions {
  service: string;
  /** The X-Gateway-Host this service answers to. */
  host: string;
  accounts: AccountStore;
  /**
   * How long a key's grant is trusted without asking the database: the longest a revocation or a plan change takes to
   * show when its announcement is lost (see announceGrantChange).
   */
  cacheTtlMs: number;
  /** Where grant changes are announced (Redis pub/sub on every replica); without it only cacheTtlMs applies. */
  kv?: KeyValueStore;
  /** Marketplace-proxy mode: requests carrying this secret are trusted to name the subscriber and plan. */
  proxySecret?: string;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const PLATFORM_HOOK = Symbol("platform request hook");

/**
 * Adds one of the platform's request hooks (authentication, metering) to a route, from an onRoute hook: after the
 * platform hooks added before it, before the route's own hooks, which may rely on `request.subscriber`.
 */
export function addPlatformHook(route: RouteOptions, hook: onRequestHookHandler): void {
  const current = route.onRequest;
  // A fresh array: the route's options share theirs with the HEAD route Fastify derives from a GET route.
  const hooks: onRequestHookHandler[] = current === undefined ? [] : Array.isArray(current) ? [...current] : [current];
  let at = 0;
  while (at < hooks.length && PLATFORM_HOOK in hooks[at]) at++;
  hooks.splice(at, 0, Object.assign(hook, { [PLATFORM_HOOK]: true }));
  route.onRequest = hooks;
}

function secretsEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Drops the cached grants a change announces, on this process, for as long as the app runs. */
async function listenForGrantChanges(app: FastifyInstance, kv: KeyValueStore, grants: TtlCache<KeyGrant | null>): Promise<void> {
  const forget = (message: string) => {
    let change: Partial<{ keyId: string; accountId: string }>;
    try {
      change = JSON.parse(message);
    } catch {
      return;
    }
    if (typeof change.keyId === "string") grants.deleteWhere((grant) => grant?.keyId === change.keyId);
    if (typeof change.accountId === "string") grants.deleteWhere((grant) => grant?.accountId === change.accountId);
  };
  try {
    const unsubscribe = await kv.subscribe(GRANT_CHANGES_CHANNEL, forget);
    app.addHook("onClose", async () => unsubscribe());
  } catch (error) {
    app.log.warn({ err: error }, "cannot hear key revocations from other processes: they take effect within the key cache lifetime");
  }
}

export const gatewayAuth = fp<GatewayAuthOptions>(
  async (app, options) => {
    const grants = new TtlCache<KeyGrant | null>(options.cacheTtlMs, KEY_CACHE_SIZE);
    const proxyAccounts = new TtlCache<string>(options.cacheTtlMs, KEY_CACHE_SIZE);
    if (options.kv) await listenForGrantChanges(app, options.kv, grants);

    const subscriberFromProxy = async (request: FastifyRequest, secret: string): Promise<Subscriber> => {
      if (!options.proxySecret || !secretsEqual(secret, options.proxySecret)) throw errors.invalidApiKey("The proxy secret is not valid.");
      const user = header(request, "x-gateway-user");
      const plan = header(request, "x-gateway-subscription")?.toUpperCase();
      if (!user) throw errors.validation("X-Gateway-User", "is required in proxy mode");
      if (!plan || !isPlanName(plan)) throw errors.validation("X-Gateway-Subscription", "must be one of BASIC, PRO, ULTRA, MEGA");
      const accountId = await proxyAccounts.get(user, async () => (await options.accounts.accountForSubscriber(user)).id);
      return { accountId, keyId: PROXY_KEY_ID, plan, service: options.service };
    };

    const subscriberOf = (grant: KeyGrant | null): Subscriber => {
      if (!grant || !grant.active) throw errors.invalidApiKey();
      if (!grant.plan) {
        throw errors.invalidApiKey(`This key's account has no subscription to ${options.service}; subscribe to a plan first.`);
      }
      return { accountId: grant.accountId, keyId: grant.keyId, plan: grant.plan, service: options.service };
    };

    // Cached by the presented key, so a hot key is not even hashed; only the hash goes to the database.
    const loadGrant = (key: string) => grants.get(key, () => options.accounts.grantForKey(hashApiKey(key), options.service));

    /** Gives the request the subscriber a key's grant names, or fails it. */
    const admitGrant = (request: FastifyRequest, grant: KeyGrant | null, done: HookHandlerDoneFunction) => {
      let subscriber: Subscriber;
      try {
        subscriber = subscriberOf(grant);
      } catch (error) {
        return done(error as Error);
      }
      request.subscriber = subscriber;
      done();
    };

    // A callback hook with a synchronous path for a cached key: most requests take it, and it costs no promise.
    const authenticate: onRequestHookHandler = (request, _reply, done) => {
      const proxySecret = header(request, "x-gateway-proxy-secret");
      const key = header(request, "x-gateway-key");
      if (!key && !proxySecret) return done(errors.missingApiKey());
      if (header(request, "x-gateway-host")?.toLowerCase() !== options.host) return done(errors.hostMismatch(options.host));
      if (proxySecret) {
        subscriberFromProxy(request, proxySecret).then((subscriber) => {
          request.subscriber = subscriber;
          done();
        }, done);
        return;
      }
      const cached = grants.peek(key!);
      if (cached !== undefined) return admitGrant(request, cached, done);
      loadGrant(key!).then((grant) => admitGrant(request, grant, done), done);
    };

    app.decorateRequest("subscriber", null as unknown as Subscriber);
    // Decided once per route rather than on every request: public routes never see the hook. Unmatched paths
    // have no route, so they fall through to the 404 handler without credentials.
    app.addHook("onRoute", (route) => {
      if (!route.config?.public) addPlatformHook(route, authenticate);
    });
  },
  { name: "gateway-auth" },
);
