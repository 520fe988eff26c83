import { Redis } from "ioredis";
import type { Admission, AdmitRequest, KeyValueStore } from "./key-value.js";
import { tracing } from "@apiplat/tracing";
import { GCRA_LUA, intervalMicros } from "./rate-limit.js";
import { tracedKeyValueStore } from "./traced-store.js";

export interface RedisStoreOptions {
  /** Prefixes every key and channel (tests use one per file). */
  keyPrefix?: string;
}

const INCRBY_WITH_TTL = `
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if v == tonumber(ARGV[1]) and tonumber(ARGV[2]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return v`;

const INCR_IF_BELOW = `
local v = tonumber(redis.call('GET', KEYS[1]) or '0')
if v >= tonumber(ARGV[1]) then return -1 end
v = redis.call('INCR', KEYS[1])
if v == 1 and tonumber(ARGV[2]) > 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return v`;

// KEYS: monthly counter, usage log (optional). ARGV: usage field.
const REFUND_REQUEST = `
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECR', KEYS[1]) end
if KEYS[2] then redis.call('HINCRBY', KEYS[2], ARGV[1], -1) end
return 0`;

// KEYS: from, to, ledger. ARGV: time (ms).
const TAKE_HASH = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('RENAME', KEYS[1], KEYS[2])
redis.call('ZADD', KEYS[3], ARGV[1], KEYS[2])
return redis.call('HGETALL', KEYS[2])`;

// KEYS: from, to, ledger. ARGV: time (ms), most values to take (at most a few thousand: Lua's unpack limit).
const TAKE_LIST = `
local values = redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[2]) - 1)
if #values == 0 then return false end
redis.call('LTRIM', KEYS[1], #values, -1)
redis.call('RPUSH', KEYS[2], unpack(values))
redis.call('ZADD', KEYS[3], ARGV[1], KEYS[2])
return values`;

const THROTTLE = `${GCRA_LUA}
return gcra(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))`;

// KEYS: rate (GCRA TAT), monthly counter, usage log (optional). ARGV: rate interval in µs (-1: no rate limit), burst,
// monthly hard limit (-1: none), counter TTL, seed (-1: none), usage field. Returns {outcome, used, wait in µs}:
// outcome 0 admitted (and counted in the usage log), 1 rate limited, 2 quota exceeded, 3 needs seed. A refused request
// changes nothing.
const ADMIT_REQUEST = `${GCRA_LUA}
local used = redis.call('GET', KEYS[2])
if not used then
  if tonumber(ARGV[5]) < 0 then return {3, 0, 0} end
  used = ARGV[5]
  redis.call('SET', KEYS[2], used, 'EX', ARGV[4])
end
used = tonumber(used)
local limit = tonumber(ARGV[3])
if limit >= 0 and used >= limit then return {2, used, 0} end
if tonumber(ARGV[1]) >= 0 then
  local wait = gcra(KEYS[1], tonumber(ARGV[1]), tonumber(ARGV[2]))
  if wait > 0 then return {1, used, wait} end
end
if KEYS[3] then redis.call('HINCRBY', KEYS[3], ARGV[6], 1) end
return {0, redis.call('INCR', KEYS[2]), 0}`;

/** Values one takeList moves at most: Lua's unpack takes a few thousand arguments. */
const MAX_TAKEN_VALUES = 5_000;

/** HGETALL's flat [field, value, ...] as an object. */
function fieldsOf(flat: string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
  return fields;
}

const OUTCOMES = ["admitted", "rate_limited", "quota_exceeded", "needs_seed"] as const;

interface PlatformCommands {
  incrByWithTtl(key: string, by: number, ttl: number): Promise<number>;
  incrIfBelow(key: string, limit: number, ttl: number): Promise<number>;
  refundRequest(numberOfKeys: number, ...args: (string | number)[]): Promise<number>;
  takeHash(from: string, to: string, ledger: string, atMs: number): Promise<string[] | null>;
  takeList(from: string, to: string, ledger: string, atMs: number, max: number): Promise<string[] | null>;
  throttle(key: string, interval: number, burst: number): Promise<number>;
  admitRequest(numberOfKeys: number, ...args: (string | number)[]): Promise<[number, number, number]>;
}

export async function createRedisStore(url: string, options: RedisStoreOptions = {}): Promise<KeyValueStore> {
  const prefix = options.keyPrefix ?? "";
  // Fail fast instead of queueing commands while Redis is away: callers degrade (e.g. to PostgreSQL).
  // Auto-pipelining sends the commands of one event-loop tick in one write: under load the per-request
  // admission scripts of many requests share a round trip.
  const connectionOptions = {
    keyPrefix: prefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 3_000,
  };
  const redis = new Redis(url, connectionOptions) as Redis & PlatformCommands;
  redis.on("error", () => {});
  redis.defineCommand("incrByWithTtl", { numberOfKeys: 1, lua: INCRBY_WITH_TTL });
  redis.defineCommand("incrIfBelow", { numberOfKeys: 1, lua: INCR_IF_BELOW });
  // The number of keys varies (the usage log is optional): given with each call.
  redis.defineCommand("refundRequest", { lua: REFUND_REQUEST });
  redis.defineCommand("takeHash", { numberOfKeys: 3, lua: TAKE_HASH });
  redis.defineCommand("takeList", { numberOfKeys: 3, lua: TAKE_LIST });
  redis.defineCommand("throttle", { numberOfKeys: 1, lua: THROTTLE });
  redis.defineCommand("admitRequest", { lua: ADMIT_REQUEST });
  await redis.connect();

  let subscriber: Redis | undefined;
  const handlers = new Map<string, Set<(message: string) => void>>();
  let subscriberReady: Promise<Redis> | undefined;
  // One connection for every subscription, shared as a promise: a second subscribe while the first is still
  // connecting must wait for the connection, or its SUBSCRIBE overtakes the connection's ready check.
  const subscriberConnection = (): Promise<Redis> =>
    (subscriberReady ??= connectSubscriber().catch((error: unknown) => {
      subscriberReady = undefined;
      throw error;
    }));
  const connectSubscriber = async (): Promise<Redis> => {
    subscriber = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null });
    subscriber.on("error", () => {});
    subscriber.on("message", (channel: string, message: string) => {
      for (const handler of handlers.get(channel) ?? []) handler(message);
    });
    await subscriber.connect();
    return subscriber;
  };

  const store: KeyValueStore = {
    kind: "redis",
    get: (key) => redis.get(key),
    async set(key, value, ttlSeconds) {
      if (ttlSeconds) await redis.set(key, value, "EX", ttlSeconds);
      else await redis.set(key, value);
    },
    async del(...keys) {
      if (keys.length > 0) await redis.del(...keys);
    },
    incr: (key, ttlSeconds) => redis.incrByWithTtl(key, 1, ttlSeconds ?? 0),
    incrBy: (key, by, ttlSeconds) => redis.incrByWithTtl(key, by, ttlSeconds ?? 0),
    async incrIfBelow(key, limit, ttlSeconds) {
      const value = await redis.incrIfBelow(key, limit, ttlSeconds ?? 0);
      return value < 0 ? null : value;
    },
    async refundRequest(quotaKey, usage) {
      if (usage) await redis.refundRequest(2, quotaKey, usage.log, usage.field);
      else await redis.refundRequest(1, quotaKey);
    },
    async takeHash(from, to, ledger, atMs) {
      const flat = await redis.takeHash(from, to, ledger, atMs);
      return flat ? fieldsOf(flat) : null;
    },
    async takenBefore(ledger, beforeMs) {
      // ZRANGEBYSCORE returns the members as stored: full key names, with this connection's prefix.
      const members = await redis.zrangebyscore(ledger, "-inf", beforeMs);
      return Promise.all(
        members.map(async (member) => {
          const key = member.slice(prefix.length);
          return { key, fields: await redis.hgetall(key) };
        }),
      );
    },
    async releaseTaken(ledger, key) {
      await redis
        .multi()
        .del(key)
        .zrem(ledger, prefix + key)
        .exec();
    },
    async pushList(key, values) {
      if (values.length > 0) await redis.rpush(key, ...values);
    },
    async takeList(from, to, ledger, atMs, max) {
      const values = await redis.takeList(from, to, ledger, atMs, Math.max(1, Math.min(max, MAX_TAKEN_VALUES)));
      return values && values.length > 0 ? values : null;
    },
    async takenListsBefore(ledger, beforeMs) {
      const members = await redis.zrangebyscore(ledger, "-inf", beforeMs);
      return Promise.all(
        members.map(async (member) => {
          const key = member.slice(prefix.length);
          return { key, values: await redis.lrange(key, 0, -1) };
        }),
      );
    },
    async throttle(key, limit) {
      const waitMicros = await redis.throttle(key, intervalMicros(limit), Math.max(1, limit.burst));
      return waitMicros > 0 ? Math.ceil(waitMicros / 1000) : 0;
    },
    async admitRequest(request: AdmitRequest): Promise<Admission> {
      const { rate } = request;
      const keys = request.usage ? [request.rateKey, request.quotaKey, request.usage.log] : [request.rateKey, request.quotaKey];
      const [code, used, waitMicros] = await redis.admitRequest(
        keys.length,
        ...keys,
        rate ? intervalMicros(rate) : -1,
        rate ? Math.max(1, rate.burst) : 1,
        request.quotaLimit ?? -1,
        request.quotaTtlSeconds,
        request.seed ?? -1,
        request.usage?.field ?? "",
      );
      const outcome = OUTCOMES[code];
      if (outcome === "needs_seed") return { outcome };
      if (outcome === "rate_limited") return { outcome, used, retryAfterMs: Math.ceil(waitMicros / 1000) };
      return { outcome, used };
    },
    async publish(channel, message) {
      await redis.publish(prefix + channel, message);
    },
    async subscribe(channel, handler) {
      const connection = await subscriberConnection();
      const name = prefix + channel;
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
        await connection.subscribe(name);
      }
      set.add(handler);
      return async () => {
        set!.delete(handler);
        if (set!.size === 0 && handlers.get(name) === set) {
          handlers.delete(name);
          // While Redis is away the command would wait in the offline queue for its return, and a shutdown
          // with it; a subscription does not outlive its connection anyway, and without a handler a message
          // on a resubscribed channel is dropped.
          if (connection.status === "ready") await connection.unsubscribe(name).catch(() => {});
        }
      };
    },
    async ping() {
      await redis.ping();
    },
    async close() {
      handlers.clear();
      subscriber?.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
  // Tracing is started before the platform opens its store, or not at all: untraced, the store is used as it is.
  return tracing.on ? tracedKeyValueStore(store) : store;
}
