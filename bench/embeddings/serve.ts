/**
 * The embeddings service on a real listener for the benchmark, started pinned to one core by `throughput.ts`.
 * Settings come from the environment (EMBEDDINGS_TFJS_BACKEND, EMBEDDINGS_CACHE_MB, ...), like production.
 * Prints one JSON line {port, key, pid} when listening; closes cleanly on SIGTERM.
 */
import { buildService } from "@apiplat/service-kit";
import { createTestPlatform } from "@apiplat/testing";
import service from "../../services/embeddings/src/service.js";

const platform = await createTestPlatform({
  env: { ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn", METERING_FLUSH_MS: "2000", RATE_LIMITS: "off" } as Record<string, string>,
});
const app = await buildService(service, platform.deps);
const { key } = await platform.subscribe("embeddings", "MEGA");
await app.listen({ port: 0, host: "127.0.0.1" });
console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port, key, pid: process.pid }));
process.once("SIGTERM", async () => {
  await app.close();
  await platform.close();
  process.exit(0);
});
