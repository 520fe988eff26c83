import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { integerSetting, listSetting } from "./env.js";
import { SERVICE_NAMES, TEMPLATE_SERVICE, defaultPort, envPrefix, type AppName, DEFAULT_ADMIN_PORT } from "./services.js";

export interface ServiceEndpoint {
  name: AppName;
  port: number;
  host: string;
}

export interface PlatformConfig {
  /** "api.local" by default: a service's public host is `<name>.<publicDomain>`. */
  publicDomain: string;
  /** Address the listeners bind to. */
  bindAddress: string;
  services: ServiceEndpoint[];
  adminPort: number;
  /** Required by every service; `npm start` sets it to its local server when unset. */
  databaseUrl?: string;
  /**
   * The PostgreSQL schema the platform's tables live in (search_path), when not the connection's default: lets several
   * platforms share one database without seeing each other (the test suites, a staging copy). DATABASE_SCHEMA.
   */
  databaseSchema?: string;
  /** Unset: counters, caches and pub/sub live in-process. */
  redisUrl?: string;
  /** Prefixes every Redis key and channel (REDIS_KEY_PREFIX): platforms sharing one Redis then never meet. */
  redisKeyPrefix?: string;
  adminToken?: string;
  /** Marketplace-proxy mode is on when this shared secret is set. */
  gatewayProxySecret?: string;
  authCacheTtlMs: number;
  /** Per-second limits per plan; an operator may turn them off when the marketplace enforces its own. */
  rateLimitsEnabled: boolean;
  meteringFlushMs: number;
  outboundAllowCidrs: string[];
  datasetsDir: string;
  modelsDir: string;
  logLevel: string;
  /** Fastify's trustProxy: false, true, or a comma-separated list of proxy addresses/CIDRs (TRUST_PROXY). */
  trustProxy: boolean | string;
  /**
   * How long a client may take to send a request's headers, and its whole request (headers and body): a slow client
   * holding a connection open is cut off after these (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS).
   */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** The raw environment, for a service's own settings (read only by a manifest's `settings`). */
  env: Record<string, string | undefined>;
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * The shared/ folder where datasets and models live in development: beside the checkout, or, for a clone of a local
 * repository (`git clone . /tmp/try-it`), beside the repository it was cloned from. Production sets DATASETS_DIR and
 * MODELS_DIR instead.
 */
export function defaultSharedDir(checkout: string = repoRoot): string {
  const candidates = [path.resolve(checkout, "../shared")];
  const origin = localOriginPath(checkout);
  if (origin) candidates.push(path.resolve(origin, "../shared"));
  return candidates.find((dir) => existsSync(dir)) ?? path.resolve(checkout, "shared");
}

/** The path of remote "origin" when it is a folder on this machine (a plain path or a file:// URL). */
function localOriginPath(checkout: string): string | null {
  let gitConfig: string;
  try {
    gitConfig = readFileSync(path.join(checkout, ".git", "config"), "utf8");
  } catch {
    return null;
  }
  // eslint-disable-next-line regexp/no-super-linear-backtracking -- reads this checkout's own .git/config, never request data.
  const url = /\[remote "origin"\][^[]*?^\s*url\s*=\s*(.+?)\s*$/m.exec(gitConfig)?.[1];
  if (!url) return null;
  if (url.startsWith("file://")) return fileURLToPath(url);
  return path.isAbsolute(url) ? url : null;
}

/** The public domain of a platform not configured for the internet: its hosts resolve nowhere. */
export const DEFAULT_PUBLIC_DOMAIN = "api.local";

/** A schema name the platform may put in search_path: lower-case letters, digits and underscores. */
function schemaSetting(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw)) {
    throw new Error(`DATABASE_SCHEMA must be a lower-case PostgreSQL name (letters, digits, _; at most 63), got "${raw}"`);
  }
  return raw;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): PlatformConfig {
  const publicDomain = env.PUBLIC_DOMAIN || DEFAULT_PUBLIC_DOMAIN;
  const names: AppName[] = [...SERVICE_NAMES, TEMPLATE_SERVICE];
  const services = names.map((name) => ({
    name,
    port: integerSetting(env, `${envPrefix(name)}_PORT`, defaultPort(name)),
    host: `${name}.${publicDomain}`,
  }));
  const shared = defaultSharedDir();
  return {
    publicDomain,
    bindAddress: env.BIND_ADDRESS || "0.0.0.0",
    services,
    adminPort: integerSetting(env, "ADMIN_PORT", DEFAULT_ADMIN_PORT),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: schemaSetting(env.DATABASE_SCHEMA),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX || undefined,
    adminToken: env.ADMIN_TOKEN || undefined,
    gatewayProxySecret: env.GATEWAY_PROXY_SECRET || undefined,
    authCacheTtlMs: integerSetting(env, "AUTH_CACHE_TTL_MS", 5_000),
    rateLimitsEnabled: env.RATE_LIMITS !== "off",
    meteringFlushMs: integerSetting(env, "METERING_FLUSH_MS", 1_000),
    outboundAllowCidrs: listSetting(env.OUTBOUND_ALLOW_CIDRS),
    datasetsDir: env.DATASETS_DIR || path.join(shared, "datasets"),
    modelsDir: env.MODELS_DIR || path.join(shared, "models"),
    logLevel: env.LOG_LEVEL || "info",
    trustProxy: env.TRUST_PROXY === "true" ? true : env.TRUST_PROXY || false,
    headersTimeoutMs: integerSetting(env, "HEADERS_TIMEOUT_MS", 10_000, 100),
    requestTimeoutMs: integerSetting(env, "REQUEST_TIMEOUT_MS", 30_000, 100),
    env,
  };
}

export function serviceEndpoint(config: PlatformConfig, service: AppName): ServiceEndpoint {
  const endpoint = config.services.find((s) => s.name === service);
  if (!endpoint) throw new Error(`unknown service ${service}`);
  return endpoint;
}

/**
 * Where clients reach a service. With the default public domain (api.local, which resolves nowhere) that is its port on
 * this machine, as the local start runs it; with PUBLIC_DOMAIN set, its public host behind the edge, over https.
 */
export function serviceUrl(config: PlatformConfig, service: AppName): string {
  const { port, host } = serviceEndpoint(config, service);
  if (config.publicDomain !== DEFAULT_PUBLIC_DOMAIN) return `https://${host}`;
  const address = config.bindAddress === "0.0.0.0" || config.bindAddress === "::" ? "127.0.0.1" : config.bindAddress;
  return `http://${address.includes(":") ? `[${address}]` : address}:${port}`;
}
