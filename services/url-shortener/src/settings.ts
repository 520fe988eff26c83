import { integerSetting, listSetting, serviceEndpoint, serviceUrl, type Env, type PlatformConfig } from "@apiplat/config";
import { DEFAULT_CODE_LENGTH } from "./domain/codes.js";
import { SAFE_BROWSING_DEFAULT_ENDPOINT } from "@apiplat/url-safety";

/** The service's own settings, read from the environment once by the manifest (tests override some). */
export interface ShortenerSettings {
  /**
   * Base of the short URLs on the service's own host: SHORT_LINK_BASE_URL, else where clients reach the service
   * (serviceUrl: http://127.0.0.1:3001 on the local start, https://url-shortener.<PUBLIC_DOMAIN> with a public domain).
   */
  baseUrl: string;
  /** The host customers point their domains' CNAME records at. */
  edgeHost: string;
  /** Scheme of short URLs on custom domains. */
  customDomainScheme: "http" | "https";
  codeLength: number;
  safeBrowsingApiKey: string | null;
  safeBrowsingEndpoint: string;
  safeBrowsingTimeoutMs: number;
  /** true: create the link when Safe Browsing does not answer; false: refuse with 503. */
  safeBrowsingFailOpen: boolean;
  blocklistFiles: string[];
  /** How often the blocklist files are checked for changes (0: only at start and on SIGHUP). */
  blocklistReloadMs: number;
  clickFlushMs: number;
  clickBatchSize: number;
  clickBufferMax: number;
  /** Entries of the in-process link cache. */
  linkCacheEntries: number;
  linkCacheTtlMs: number;
  redisLinkTtlSeconds: number;
  /** Reverse proxies in front of the service whose X-Forwarded-For entries are trusted (0: use the socket address). */
  trustedProxyHops: number;
}

export function defaultSettings(config: PlatformConfig): ShortenerSettings {
  const endpoint = serviceEndpoint(config, "url-shortener");
  return {
    baseUrl: serviceUrl(config, "url-shortener"),
    edgeHost: endpoint.host,
    customDomainScheme: "https",
    codeLength: DEFAULT_CODE_LENGTH,
    safeBrowsingApiKey: null,
    safeBrowsingEndpoint: SAFE_BROWSING_DEFAULT_ENDPOINT,
    safeBrowsingTimeoutMs: 2_000,
    safeBrowsingFailOpen: false,
    blocklistFiles: [],
    blocklistReloadMs: 300_000,
    clickFlushMs: 1_000,
    clickBatchSize: 1_000,
    clickBufferMax: 200_000,
    linkCacheEntries: 50_000,
    linkCacheTtlMs: 60_000,
    redisLinkTtlSeconds: 3_600,
    trustedProxyHops: 0,
  };
}

/** Reads the URL_SHORTENER_* (and SHORT_LINK_BASE_URL, EDGE_HOST, SAFE_BROWSING_*) environment variables. */
export function settingsFromEnv(env: Env, config: PlatformConfig): ShortenerSettings {
  const defaults = defaultSettings(config);
  const baseUrl = (env.SHORT_LINK_BASE_URL || defaults.baseUrl).replace(/\/+$/, "");
  const policy = env.SAFE_BROWSING_FAILURE_POLICY || "closed";
  if (policy !== "open" && policy !== "closed") throw new Error(`SAFE_BROWSING_FAILURE_POLICY must be open or closed, got "${policy}"`);
  const scheme = env.CUSTOM_DOMAIN_SCHEME || "https";
  if (scheme !== "http" && scheme !== "https") throw new Error(`CUSTOM_DOMAIN_SCHEME must be http or https, got "${scheme}"`);
  return {
    ...defaults,
    baseUrl,
    // The CNAME target: the host of an explicit base URL, else the service's own host name (never a bare address).
    edgeHost: (env.EDGE_HOST || (env.SHORT_LINK_BASE_URL ? new URL(baseUrl).hostname : defaults.edgeHost)).toLowerCase(),
    customDomainScheme: scheme,
    codeLength: integerSetting(env, "URL_SHORTENER_CODE_LENGTH", defaults.codeLength, 6, 16),
    safeBrowsingApiKey: env.SAFE_BROWSING_API_KEY || null,
    safeBrowsingEndpoint: env.SAFE_BROWSING_ENDPOINT || defaults.safeBrowsingEndpoint,
    safeBrowsingTimeoutMs: integerSetting(env, "SAFE_BROWSING_TIMEOUT_MS", defaults.safeBrowsingTimeoutMs, 100, 30_000),
    safeBrowsingFailOpen: policy === "open",
    blocklistFiles: listSetting(env.URL_SHORTENER_BLOCKLIST_FILES),
    blocklistReloadMs: integerSetting(env, "URL_SHORTENER_BLOCKLIST_RELOAD_SECONDS", 300, 0, 86_400) * 1000,
    clickFlushMs: integerSetting(env, "URL_SHORTENER_CLICK_FLUSH_MS", defaults.clickFlushMs, 50, 60_000),
    clickBufferMax: integerSetting(env, "URL_SHORTENER_CLICK_BUFFER_MAX", defaults.clickBufferMax, 1_000, 10_000_000),
    linkCacheEntries: integerSetting(env, "URL_SHORTENER_LINK_CACHE_ENTRIES", defaults.linkCacheEntries, 0, 10_000_000),
    trustedProxyHops: integerSetting(env, "URL_SHORTENER_TRUSTED_PROXY_HOPS", defaults.trustedProxyHops, 0, 10),
  };
}
