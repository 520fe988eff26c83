import { redisSpan } from "@apiplat/tracing";
import type { KeyValueStore } from "./key-value.js";

type Operation = Exclude<keyof KeyValueStore, "kind" | "subscribe" | "close">;

/** The Redis command each store operation sends (scripts run as EVALSHA). */
const COMMANDS: Record<Operation, string> = {
  get: "GET",
  set: "SET",
  del: "DEL",
  incr: "EVALSHA",
  incrBy: "EVALSHA",
  incrIfBelow: "EVALSHA",
  refundRequest: "EVALSHA",
  takeHash: "EVALSHA",
  takenBefore: "ZRANGEBYSCORE",
  releaseTaken: "MULTI",
  pushList: "RPUSH",
  takeList: "EVALSHA",
  takenListsBefore: "ZRANGEBYSCORE",
  throttle: "EVALSHA",
  admitRequest: "EVALSHA",
  publish: "PUBLISH",
  ping: "PING",
};

/**
 * The store with a span around each call, made where the caller asked (so that it belongs to the caller's request
 * even when auto-pipelining sends it with other requests' commands). Subscriptions are long-lived: no span.
 */
export function tracedKeyValueStore(store: KeyValueStore): KeyValueStore {
  const traced: Record<string, unknown> = { ...store };
  for (const [operation, command] of Object.entries(COMMANDS)) {
    const call = (store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[operation];
    traced[operation] = (...args: unknown[]) => redisSpan(operation, command, () => call(...args));
  }
  return traced as unknown as KeyValueStore;
}
