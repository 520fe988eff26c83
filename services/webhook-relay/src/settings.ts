import { optionalInteger } from "@apiplat/config";
import type { RateLimit } from "./domain/rate-limit.js";
import { LIMITS } from "./domain/limits.js";
import type { RelaySettings } from "./delivery/relay.js";

function captureRate(env: Record<string, string | undefined>): RateLimit | undefined {
  const perSecond = optionalInteger(env, "WEBHOOK_RELAY_CAPTURES_PER_SECOND", 1);
  const burst = optionalInteger(env, "WEBHOOK_RELAY_CAPTURE_BURST", 1);
  if (perSecond === undefined && burst === undefined) return undefined;
  const rate = perSecond ?? LIMITS.capturesPerSecond;
  // The default burst is two seconds' worth, as with the defaults (10/s, 20).
  return { perSecond: rate, burst: burst ?? 2 * rate };
}

/** The service's own settings from the environment (README, "Configuration"); unset ones keep their defaults. */
export function relaySettingsFromEnv(env: Record<string, string | undefined>): Partial<RelaySettings> {
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
