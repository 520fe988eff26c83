/**
 * The metering bench server: text-toolkit on the whole platform, per-second limits on, in one of two modes.
 *   in-process  the rate limit, the month's counter and the usage log in this process (the in-process store), the log
 *               moved to PostgreSQL every second: what a paid plan's request cost when each replica counted alone
 *   redis       the same on Redis, one round trip a request (GCRA, the month's counter, the usage log), drained to
 *               PostgreSQL every second by whichever replica takes it: the platform as it runs with REDIS_URL
 * Prints {port, key, keys, pid} when listening: BENCH_KEYS MEGA keys (default 300), which the client takes in turn so
 * that no key passes its plan's 100 requests a second. BENCH_RATE_LIMITS=off turns the per-second limits off.
 */
import { buildService } from "@apiplat/service-kit";
import { createMemoryStore } from "@apiplat/storage";
import { createTestPlatform } from "@apiplat/testing";
import textToolkit from "@apiplat/text-toolkit";

const mode = process.argv[2] ?? "redis";
if (!["in-process", "redis"].includes(mode)) throw new Error(`unknown mode ${mode}: in-process or redis`);
const platform = await createTestPlatform({
  env: { LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn", RATE_LIMITS: process.env.BENCH_RATE_LIMITS ?? "on", METERING_FLUSH_MS: "1000" },
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
