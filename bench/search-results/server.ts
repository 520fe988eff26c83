/**
 * The search-results service for the relevance evaluation, in a process of its own: the real platform (PostgreSQL +
 * Redis through createTestPlatform, or PGlite and the in-process store with BENCH_EMBEDDED=1), every dataset loaded
 * once, then one app per title boost of BENCH_TITLE_BOOSTS (comma-separated; default: the service's setting) and
 * matching of BENCH_MATCHES (any,all) over that one index. Prints {"servers":[{"title_boost","match","port"}],"headers","ingest"} once listening; stops and drops its
 * schema on SIGTERM.
 */
import { runIngestion } from "@apiplat/catalogue";
import { loadConfig } from "@apiplat/config";
import { buildService, serviceDatabase } from "@apiplat/service-kit";
import { createTestPlatform } from "@apiplat/testing";
import { datasetSources } from "../../services/search-results/src/ingest/datasets.js";
import service from "../../services/search-results/src/service.js";
import { readSettings } from "../../services/search-results/src/settings.js";

const platform = await createTestPlatform({
  embedded: process.env.BENCH_EMBEDDED === "1",
  env: { RATE_LIMITS: "off", METERING_FLUSH_MS: "2000", LOG_LEVEL: "silent" },
});
const base = readSettings(process.env);
const boosts = process.env.BENCH_TITLE_BOOSTS ? process.env.BENCH_TITLE_BOOSTS.split(",").map(Number) : [base.titleBoost];
const matches = process.env.BENCH_MATCHES ? process.env.BENCH_MATCHES.split(",") : [base.anyWord ? "any" : "all"];
const apps: { titleBoost: number; match: string; app: Awaited<ReturnType<typeof buildService>> }[] = [];
for (const titleBoost of boosts) {
  for (const match of matches) {
    apps.push({ titleBoost, match, app: await buildService(service, platform.deps, { settings: { ...base, autoLoad: false, titleBoost, anyWord: match === "any" } }) });
  }
}
const db = await serviceDatabase(service, platform.deps.db);
const ingest = [];
for (const source of datasetSources()) {
  const run = await runIngestion(db, source, { datasetsDir: loadConfig(process.env).datasetsDir, now: () => new Date() });
  if (run.status !== "succeeded") throw new Error(`${source.name}: ${run.error}`);
  ingest.push({ source: source.name, rows: run.rows_read, seconds: (run.finished_at.getTime() - run.started_at.getTime()) / 1000, rows_per_second: run.rows_per_second });
}
const { headers } = await platform.subscribe("search-results", "MEGA");
const servers = [];
for (const { titleBoost, match, app } of apps) {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  servers.push({ title_boost: titleBoost, match, port: typeof address === "object" && address ? address.port : 0 });
}
console.log(JSON.stringify({ servers, headers, ingest }));

process.once("SIGTERM", async () => {
  for (const { app } of apps) await app.close();
  await platform.close();
  process.exit(0);
});
