/**
 * The email service for a benchmark, in a process of its own: real PostgreSQL (a fresh schema) and Redis, relaying to
 * the SMTP sink the benchmark runs (SMTP_URL). Prints {port, key, pid} once listening; SIGTERM closes it.
 */
import { buildService } from "@apiplat/service-kit";
import { createTestPlatform } from "@apiplat/testing";
import service from "../../services/email-sending/src/service.js";

const platform = await createTestPlatform({
  env: { LOG_LEVEL: "warn", METERING_FLUSH_MS: "2000", RATE_LIMITS: "off", EMAIL_SECRET: "bench-secret-bench-secret-bench-secret" },
});
const app = await buildService(service, platform.deps, {
  settings: { smtpUrl: process.env.SMTP_URL, inboundPort: 0, inboundHost: "127.0.0.1", pollMs: 50 },
});
await app.listen({ port: 0, host: "127.0.0.1" });
const { key } = await platform.subscribe("email-sending", (process.env.BENCH_PLAN as "PRO" | "MEGA") ?? "PRO");
console.log(JSON.stringify({ port: (app.server.address() as { port: number }).port, key, pid: process.pid }));
process.once("SIGTERM", async () => {
  await app.close();
  await platform.close();
  process.exit(0);
});
