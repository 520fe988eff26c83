/**
 * The summarization service on the real platform (PostgreSQL + Redis through createTestPlatform, gateway auth and
 * metering on), listening on a free port; prints {"port","headers","pid"} of a MEGA subscriber. Started by http.ts
 * (pinned to core 0); stops and drops its schema on SIGTERM.
 */
import { buildService } from "@apiplat/service-kit";
import summarization from "@apiplat/summarization";
import { createTestPlatform } from "@apiplat/testing";

const platform = await createTestPlatform({ env: { RATE_LIMITS: "off", METERING_FLUSH_MS: "2000", LOG_LEVEL: "warn" } });
const app = await buildService(summarization, platform.deps);
const { headers } = await platform.subscribe("summarization", "MEGA");
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
console.log(JSON.stringify({ port, headers, pid: process.pid }));

process.once("SIGTERM", async () => {
  await app.close();
  await platform.close();
  process.exit(0);
});
