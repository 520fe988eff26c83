/**
 * The metering bench server: text-toolkit on the whole platform, per-second limits on, in one of three modes.
 *   in-process  the rate limit and the month's counter in this process (the in-process store), usage written behind
 *               every 2 s: what a paid plan's request cost before the limits were shared
 *   redis       the rate limit (GCRA) and the month's counter on Redis, one round trip a request; usage written behind
 *   durable     as redis, and each request's usage written to PostgreSQL before its answer (group commit): the default
 * Prints {port, key, keys, pid} when listening: BENCH_KEYS MEGA keys (default 300), which the client takes in turn so
 * that no key passes its plan's 100 requests a second.
 */
import { buildService } from "@apiplat/service-kit";
import { createMemoryStore } from "@apiplat/storage";
import { createTestPlatform } from "@apiplat/testing";
import textToolkit from "@apiplat/text-toolkit";

const mode = process.argv[2] ?? "durable";
if (!["in-process", "redis", "durable"].includes(mode)) throw new Error(`unknown mode ${mode}`);
const platform = await createTestPlatform({
  env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn", RATE_LIMITS: process.env.BENCH_RATE_LIMITS ?? "on", METERING_FLUSH_MS: mode === "durable" ? "0" : "2000" },
});
const deps = mode === "in-process" ? { ...platform.deps, kv: createMemoryStore() } : platform.deps;
const app = await buildService(textToolkit, deps);
const keys: string[] = [];
for (let i = 0; i < Number(process.env.BENCH_KEYS ?? 300); i++) keys.push((await platform.subscribe("text-toolkit", "MEGA")).key);
await app.listen({ port: 0, host: "127.0.0.1" });
console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port, key: keys[0], keys, pid: process.pid }));
process.once("SIGTERM", async () => {
  await app.close();
  await platform.close();
  process.exit(0);
});
