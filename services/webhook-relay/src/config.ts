import { optionalInteger } from "@apiplat/config";
import type { RelaySettings } from "./relay.js";

function list(raw: string | undefined): string[] | undefined {
  if (raw === undefined || raw === "") return undefined;
  return raw.split(",").map((s) => s.trim()).filter(Boolean);
}

/** The service's own settings from the environment (README, "Configuration"); unset ones keep their defaults. */
export function relaySettingsFromEnv(env: Record<string, string | undefined>): Partial<RelaySettings> {
  const entries: [keyof RelaySettings, unknown][] = [
    ["hooksUrl", env.WEBHOOK_RELAY_HOOKS_URL || undefined],
    ["forwardTimeoutMs", optionalInteger(env, "WEBHOOK_RELAY_FORWARD_TIMEOUT_MS", 1)],
    ["workerConcurrency", optionalInteger(env, "WEBHOOK_RELAY_WORKER_CONCURRENCY", 1)],
    ["pollIntervalMs", optionalInteger(env, "WEBHOOK_RELAY_POLL_INTERVAL_MS", 1)],
    ["purgeIntervalMs", optionalInteger(env, "WEBHOOK_RELAY_PURGE_INTERVAL_MS", 1)],
    ["keepAliveMs", optionalInteger(env, "WEBHOOK_RELAY_KEEPALIVE_MS", 1)],
    ["captureBatchMax", optionalInteger(env, "WEBHOOK_RELAY_CAPTURE_BATCH_MAX", 1)],
    ["trustedProxies", list(env.WEBHOOK_RELAY_TRUSTED_PROXIES)],
  ];
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as Partial<RelaySettings>;
}
