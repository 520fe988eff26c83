import { optionalInteger, serviceUrl, type Env, type PlatformConfig } from "@apiplat/config";
import type { RateLimit } from "@apiplat/service-kit";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "@apiplat/webhook-delivery";
import { STORAGE_QUOTA_BYTES, type PlanName } from "./domain/retention.js";
import { LIMITS } from "./domain/limits.js";

function captureRate(env: Env): RateLimit | undefined {
  const perSecond = optionalInteger(env, "WEBHOOK_RELAY_CAPTURES_PER_SECOND", 1);
  const burst = optionalInteger(env, "WEBHOOK_RELAY_CAPTURE_BURST", 1);
  if (perSecond === undefined && burst === undefined) return undefined;
  const rate = perSecond ?? LIMITS.capturesPerSecond;
  // The default burst is two seconds' worth, as with the defaults (10/s, 20).
  return { perSecond: rate, burst: burst ?? 2 * rate };
}

/** The service's own settings from the environment (README, "Configuration"); unset ones keep their defaults. */
export function relaySettingsFromEnv(env: Env): Partial<RelaySettings> {
  const entries: [keyof RelaySettings, unknown][] = [
    ["hooksUrl", env.WEBHOOK_RELAY_HOOKS_URL || undefined],
    ["hooksHost", env.WEBHOOK_RELAY_HOOKS_HOST?.trim().toLowerCase() || undefined],
    ["captureRate", captureRate(env)],
    ["forwardTimeoutMs", optionalInteger(env, "WEBHOOK_RELAY_FORWARD_TIMEOUT_MS", 1)],
    ["workerConcurrency", optionalInteger(env, "WEBHOOK_RELAY_WORKER_CONCURRENCY", 1)],
    ["pollIntervalMs", optionalInteger(env, "WEBHOOK_RELAY_POLL_INTERVAL_MS", 1)],
    ["purgeIntervalMs", optionalInteger(env, "WEBHOOK_RELAY_PURGE_INTERVAL_MS", 1)],
    ["keepAliveMs", optionalInteger(env, "WEBHOOK_RELAY_KEEPALIVE_MS", 1)],
    ["captureBatchMax", optionalInteger(env, "WEBHOOK_RELAY_CAPTURE_BATCH_MAX", 1)],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as Partial<RelaySettings>;
}

export interface RelaySettings {
  /**
   * Public base of hook URLs: an inbox's hook URL is `${hooksUrl}/${id}`. Null: the hooks host's when one is set,
   * else where the service answers (see hooksUrlOf).
   */
  hooksUrl: string | null;
  /**
   * A host name of the hooks' own (e.g. hooks.example.com), so that what a hook answers never comes
   * from the API's origin: requests to it reach hooks at /<id> and nothing else. Null: none.
   */
  hooksHost: string | null;
  /** Captures per second each inbox accepts (across every replica), with bursts up to `burst`. */
  captureRate: RateLimit;
  /** Bytes of captures an account may keep, per plan (fixed on each inbox at its creation). */
  storageQuotaBytes: Record<PlanName, number>;
  forwardTimeoutMs: number;
  workerConcurrency: number;
  /** How often the delivery queue is polled for retries that came due and work of other replicas. */
  pollIntervalMs: number;
  purgeIntervalMs: number;
  /** SSE keep-alive comment interval. */
  keepAliveMs: number;
  /** How long the hook URL may use an inbox read from the database (changes also announce themselves). */
  inboxCacheMs: number;
  /** Most captures written by one INSERT (1 writes each capture alone). */
  captureBatchMax: number;
  retryPolicy: RetryPolicy;
  random: () => number;
}

function defaultRelaySettings(): RelaySettings {
  return {
    hooksUrl: null,
    hooksHost: null,
    captureRate: { perSecond: LIMITS.capturesPerSecond, burst: LIMITS.captureBurst },
    storageQuotaBytes: STORAGE_QUOTA_BYTES,
    forwardTimeoutMs: 15_000,
    workerConcurrency: 64,
    pollIntervalMs: 1_000,
    purgeIntervalMs: 60_000,
    keepAliveMs: 15_000,
    inboxCacheMs: 5_000,
    captureBatchMax: 100,
    retryPolicy: DEFAULT_RETRY_POLICY,
    random: Math.random,
  };
}

/** The settings the manifest reads: the defaults and what the environment sets (README, "Configuration"). */
export function settingsFromEnv(env: Env): RelaySettings {
  return { ...defaultRelaySettings(), ...relaySettingsFromEnv(env) };
}

/** The base of hook URLs: the explicit one, else the hooks host's, else the service's own /h. */
export function hooksUrlOf(settings: RelaySettings, config: PlatformConfig): string {
  if (settings.hooksUrl !== null) return settings.hooksUrl;
  return settings.hooksHost !== null ? `http://${settings.hooksHost}` : `${serviceUrl(config, "webhook-relay")}/h`;
}
