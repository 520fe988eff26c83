import { timingSafeEqual } from "node:crypto";
import fp from "fastify-plugin";
import type { FastifyRequest } from "fastify";
import { isPlanName, type PlanName } from "@apiplat/config";
import { errors } from "@apiplat/errors";
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
const KEY_CACHE_SIZE = 10_000;

export interface GatewayAuthOptions {
  service: string;
  /** The X-Gateway-Host this service answers to. */
  host: string;
  accounts: AccountStore;
  /** How long a key's grant is trusted without asking the database: also the delay of a revocation. */
  cacheTtlMs: number;
  /** Marketplace-proxy mode: requests carrying this secret are trusted to name the subscriber and plan. */
  proxySecret?: string;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function secretsEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const gatewayAuth = fp<GatewayAuthOptions>(
  async (app, options) => {
    const grants = new TtlCache<KeyGrant | null>(options.cacheTtlMs, KEY_CACHE_SIZE);
    const proxyAccounts = new TtlCache<string>(options.cacheTtlMs, KEY_CACHE_SIZE);

    const subscriberFromProxy = async (request: FastifyRequest, secret: string): Promise<Subscriber> => {
      if (!options.proxySecret || !secretsEqual(secret, options.proxySecret)) throw errors.invalidApiKey("The proxy secret is not valid.");
      const user = header(request, "x-gateway-user");
      const plan = header(request, "x-gateway-subscription")?.toUpperCase();
      if (!user) throw errors.validation("X-Gateway-User", "is required in proxy mode");
      if (!plan || !isPlanName(plan)) throw errors.validation("X-Gateway-Subscription", "must be one of BASIC, PRO, ULTRA, MEGA");
      const accountId = await proxyAccounts.get(user, async () => (await options.accounts.accountForSubscriber(user)).id);
      return { accountId, keyId: PROXY_KEY_ID, plan, service: options.service };
    };

    const subscriberFromKey = async (key: string): Promise<Subscriber> => {
      // Cached by the presented key, so a hot key is not even hashed; only the hash goes to the database.
      const grant = await grants.get(key, () => options.accounts.grantForKey(hashApiKey(key), options.service));
      if (!grant || !grant.active) throw errors.invalidApiKey();
      if (!grant.plan) {
        throw errors.invalidApiKey(`This key's account has no subscription to ${options.service}; subscribe to a plan first.`);
      }
      return { accountId: grant.accountId, keyId: grant.keyId, plan: grant.plan, service: options.service };
    };

    app.decorateRequest("subscriber", null as unknown as Subscriber);
    app.addHook("onRequest", async (request) => {
      // Unmatched paths fall through to the 404 handler; public paths need no credentials.
      if (request.is404 || request.routeOptions.config?.public) return;
      const proxySecret = header(request, "x-gateway-proxy-secret");
      const key = header(request, "x-gateway-key");
      if (!key && !proxySecret) throw errors.missingApiKey();
      if (header(request, "x-gateway-host")?.toLowerCase() !== options.host) throw errors.hostMismatch(options.host);
      request.subscriber = proxySecret ? await subscriberFromProxy(request, proxySecret) : await subscriberFromKey(key!);
    });
  },
  { name: "gateway-auth" },
);
