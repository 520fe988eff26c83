/**
 * The platform layer's cost without the network: the same request through `inject` on the bare route plugin and on
 * the full platform app (auth, metering, metrics, logging), in one process, alternating rounds.
 *   bash scripts/pnpm.sh exec tsx bench/lib/inject-overhead.ts [requests per round]
 */
import Fastify from "fastify";
import { createTestPlatform } from "@apiplat/testing";
import { buildService } from "@apiplat/service-kit";
import textToolkit, { routes as textRoutes } from "@apiplat/text-toolkit";
import { HASH_REQUEST } from "./hash-request.js";

const perRound = Number(process.argv[2] ?? 20_000);
const payload = HASH_REQUEST.body;

const platform = await createTestPlatform({ env: { LOG_LEVEL: "warn", METERING_FLUSH_MS: "2000", RATE_LIMITS: "off" } });
const platformApp = await buildService(textToolkit, platform.deps);
const { key } = await platform.subscribe("text-toolkit", "MEGA");
const bare = Fastify({ logger: false, bodyLimit: 640 * 1024 });
await bare.register(textRoutes);
await bare.ready();

const headers = { "content-type": "application/json", "x-gateway-key": key, "x-gateway-host": "text-toolkit.api.local" };
async function round(app: typeof bare | typeof platformApp): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < perRound; i++) {
    const res = await app.inject({ method: "POST", url: "/hash", headers, payload });
    if (res.statusCode !== 200) throw new Error(`status ${res.statusCode}: ${res.body}`);
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / perRound;
}

// INJECT_ONLY=bare|platform runs one side only (for a CPU profile of it).
const only = process.env.INJECT_ONLY;
const results: Record<string, number[]> = { bare: [], platform: [] };
for (let r = 0; r < 4; r++) {
  if (only !== "platform") results.bare.push(await round(bare));
  if (only !== "bare") results.platform.push(await round(platformApp));
}
const best = (values: number[]) => Math.min(...values.slice(1));
console.log(
  JSON.stringify({
    per_round: perRound,
    bare_cpu_us: results.bare.map((v) => Math.round(v)),
    platform_cpu_us: results.platform.map((v) => Math.round(v)),
    overhead_us_best: Math.round(best(results.platform) - best(results.bare)),
  }),
);
await platformApp.close();
await bare.close();
await platform.close();
