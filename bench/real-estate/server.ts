/**
 * The real-estate service for the latency benchmark, in a process of its own (pinned to core 0 by latency.ts):
 * the real platform (PostgreSQL + Redis through createTestPlatform, or PGlite and the in-process store with
 * BENCH_EMBEDDED=1), gateway auth and metering on, per-second limits off. Loads the three full datasets first and
 * prints {"port","headers","ingest"} once listening; stops and drops its schema on SIGTERM.
 */
import { runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { buildService, serviceDatabase } from "@apiplat/service-kit";
import { createTestPlatform } from "@apiplat/testing";
import { datasetSources } from "../../services/real-estate/src/ingest/datasets.js";
import service from "../../services/real-estate/src/service.js";

const platform = await createTestPlatform({
  embedded: process.env.BENCH_EMBEDDED === "1",
  env: { RATE_LIMITS: "off", METERING_FLUSH_MS: "2000", LOG_LEVEL: "silent" },
});
const app = await buildService(service, platform.deps, { settings: { autoLoad: false } });
// The service's tables live in its own schema: ingest there, as the service reads them.
const db = await serviceDatabase(service, platform.deps.db);
const ingest = [];
for (const source of datasetSources()) {
  const run = await runIngestion(db, source, { datasetsDir: loadConfig(process.env).datasetsDir, now: () => new Date() });
  if (run.status !== "succeeded") throw new Error(`${source.name}: ${run.error}`);
  ingest.push({ source: source.name, rows: run.rows_read, seconds: (run.finished_at.getTime() - run.started_at.getTime()) / 1000, rows_per_second: run.rows_per_second });
}
const { headers } = await platform.subscribe("real-estate", "MEGA");
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
console.log(JSON.stringify({ port, headers, ingest }));

process.once("SIGTERM", async () => {
  await app.close();
  await platform.close();
  process.exit(0);
});
