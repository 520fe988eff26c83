/**
 * The company-data service for the latency benchmark, in a process of its own (pinned to core 0 by latency.ts):
 * the real platform (PostgreSQL + Redis through createTestPlatform, or PGlite and the in-process store with
 * BENCH_EMBEDDED=1), gateway auth and metering on, per-second limits off. Loads every dataset first (timing each
 * source; the profile merge runs once, after the last) and prints {"port","headers","ingest"} once listening;
 * stops and drops its schema on SIGTERM.
 */
import { runIngestions } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { buildService, serviceDatabase } from "@apiplat/service-kit";
import { createTestPlatform } from "@apiplat/testing";
import { datasetSources } from "../../services/company-data/src/ingest/datasets.js";
import service from "../../services/company-data/src/service.js";

const datasetsDir = loadConfig(process.env).datasetsDir;
const platform = await createTestPlatform({
  embedded: process.env.BENCH_EMBEDDED === "1",
  env: { RATE_LIMITS: "off", METERING_FLUSH_MS: "2000", LOG_LEVEL: "silent", DATASETS_DIR: datasetsDir },
});
const app = await buildService(service, platform.deps, { settings: { autoLoad: false, secUserAgent: null } });
const started = performance.now();
// The service keeps its tables in a schema of its own: ingest where it reads.
const db = await serviceDatabase(service, platform.deps.db);
const runs = await runIngestions(db, datasetSources(), { datasetsDir, now: () => new Date() });
const total = { rows: 0, seconds: (performance.now() - started) / 1000 };
const ingest = runs.map((run) => {
  if (run.status !== "succeeded") throw new Error(`${run.source}: ${run.error}`);
  total.rows += run.rows_read;
  return { source: run.source, rows: run.rows_read, seconds: (run.finished_at.getTime() - run.started_at.getTime()) / 1000, rows_per_second: run.rows_per_second };
});
const { headers } = await platform.subscribe("company-data", "MEGA");
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
console.log(JSON.stringify({ port, headers, ingest, total: { ...total, rows_per_second: Math.round(total.rows / total.seconds) } }));

process.once("SIGTERM", async () => {
  await app.close();
  await platform.close();
  process.exit(0);
});
